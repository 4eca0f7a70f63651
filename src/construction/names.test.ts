import { describe, expect, it } from 'vitest';
import { nameKey, NameSet, renamedEquivalent } from './names.js';
import { randomFor } from './random.js';

describe('names', () => {
  it('collides names equal but for case and punctuation', () => {
    const set = new NameSet(['get_order_details']);
    for (const name of [
      'Get-Order-Details',
      'getOrderDetails',
      'GET.ORDER.DETAILS',
      'get order details',
    ])
      expect(set.collides(name)).toBe(true);
    expect(set.collides('get_order_detail')).toBe(false);
    expect(nameKey('A_b-C.d')).toBe('abcd');
  });

  it("renames by a leading-verb synonym in the name's own style, else by a version suffix, never colliding", () => {
    expect(renamedEquivalent('get_order_details', new NameSet(['get_order_details']))).toBe(
      'fetch_order_details',
    );
    expect(
      renamedEquivalent(
        'get_order_details',
        new NameSet(['get_order_details', 'FetchOrderDetails']),
      ),
    ).toBe('retrieve_order_details');
    expect(renamedEquivalent('FetchAirQualityAPI', new NameSet([]))).toBe('RetrieveAirQualityAPI');
    expect(renamedEquivalent('searchFlights', new NameSet([]))).toBe('queryFlights');
    expect(renamedEquivalent('ocr', new NameSet(['ocr']))).toBe('ocr_v2');
  });
});

describe('random', () => {
  it('gives the same stream for the same seed and keys, another for other keys', () => {
    const draw = (seed: number, key: string) =>
      Array.from({ length: 5 }, randomFor(seed, 'step', key).next);
    expect(draw(1, 'a')).toEqual(draw(1, 'a'));
    expect(draw(1, 'a')).not.toEqual(draw(1, 'b'));
    expect(draw(1, 'a')).not.toEqual(draw(2, 'a'));
    const random = randomFor(9, 'x');
    for (let index = 0; index < 200; index++) {
      const value = random.int(1, 5);
      expect(value >= 1 && value <= 5 && Number.isInteger(value)).toBe(true);
    }
    expect(randomFor(3, 'y').shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
