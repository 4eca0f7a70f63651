import { describe, expect, it } from 'vitest';
import { count, fixed, interval, pValue, roundTo, signed } from './numbers.js';

describe('number formatting', () => {
  it.each([
    [74.45, 1, 74.5],
    [0.855, 2, 0.86],
    [1.005, 2, 1.01],
    [-12.305, 2, -12.31],
    [8.544, 1, 8.5],
  ])(
    'roundTo(%d, %d) = %d (half away from zero, binary noise absorbed)',
    (value, decimals, expected) => {
      expect(roundTo(value, decimals)).toBe(expected);
    },
  );

  it('formats missing values, signs, intervals, counts and p-values', () => {
    expect(fixed(null, 1)).toBe('–');
    expect(fixed(-0.01, 1)).toBe('0.0');
    expect(signed(1.26, 1)).toBe('+1.3');
    expect(signed(-0.93, 2)).toBe('-0.93');
    expect(signed(0.001, 1)).toBe('0.0');
    expect(interval({ lo: 71.84, hi: 77.04 }, 1)).toBe('71.8–77.0');
    expect(interval(null, 1)).toBe('–');
    expect(count(50000)).toBe('50,000');
    expect(pValue(0.0004)).toBe('< 0.001');
    expect(pValue(0.0412)).toBe('0.041');
  });
});
