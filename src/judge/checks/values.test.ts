import { describe, expect, it } from 'vitest';
import { makeCase } from './make-case.fixture.js';
import {
  arithmeticValue,
  groundingText,
  isGrounded,
  isIdentifier,
  numberOf,
  sameValue,
} from './values.js';

describe('sameValue', () => {
  it.each<[unknown, unknown, boolean]>([
    // Carried over from the D9 valuesAgree table (rules@1).
    [' Paris ', 'paris', true],
    ['Paris', 'London', false],
    [3, 3.0, true],
    ['3', 3, true],
    ['three', 3, false],
    [true, true, true],
    [['A', 2], ['a', '2'], true],
    [['a'], ['a', 'b'], false],
    [{ city: 'Rome ' }, { city: 'rome' }, true],
    [{ city: 'Rome', extra: 1 }, { city: 'rome' }, false],
    [{ id: '<id from step 1>' }, { id: 'X9' }, true],
    [{}, JSON.parse('{"constructor": "x"}'), false],
    // Normalisation this issue asks for.
    [true, 'true', true],
    ['256.67-226.49', '256.67 - 226.49', true],
    ['2 * ((350 - 122) + (499 - 127))', '2*(350-122+499-127)', true],
    ['2 * (350 - 122)', '2 * (350 - 123)', false],
    ['2024-05-18', '2024-04-19', false],
    ['1,200.50', 1200.5, true],
    ['$30', 30, true],
    ['Economy', 'economy', true],
    ['New  York', 'new york', true],
    [['4983901480', '1151293680'], ['1151293680', '4983901480'], true],
    [['x', 'x'], ['x', 'y'], false],
    [[{ a: 1 }, { b: 2 }], [{ b: 2 }, { a: 1 }], false],
  ])('%j ~ %j → %s', (left, right, expected) => {
    expect(sameValue(left, right)).toBe(expected);
  });
});

describe('numberOf and arithmeticValue', () => {
  it.each<[unknown, number | null]>([
    ['42', 42],
    ['-3.5', -3.5],
    ['1,000', 1000],
    ['1,00', null],
    ['12abc', null],
    [Number.NaN, null],
  ])('numberOf(%j) = %j', (value, expected) => expect(numberOf(value)).toBe(expected));
  it.each<[string, number | null]>([
    ['2 * ((350 - 122) + (499 - 127))', 1200],
    ['155.33 - 147.05 + 268.77 - 235.13', 155.33 - 147.05 + 268.77 - 235.13],
    ['-(2+3)*4', -20],
    ['7', null],
    ['2 +', null],
    ['(1+2', null],
    ['alert(1)', null],
  ])('arithmeticValue(%j) = %j', (text, expected) => {
    const value = arithmeticValue(text);
    if (expected === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(expected, 9);
  });
});

describe('grounding', () => {
  const caseItem = makeCase('step_wise_planning', {
    input: {
      query: 'Cancel order #W2378156 for Yusuf Rossi, zip 19122.',
      trajectoryPrefix: [
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ name: 'get_order_details', arguments: { order_id: '#W2378156' } }],
        },
        {
          role: 'tool',
          text: '{"items": [{"item_id": "4983901480", "price": 262.47}]}',
          toolCalls: [],
        },
      ],
    },
  });
  const context = groundingText(caseItem);
  it.each<[unknown, boolean]>([
    ['#W2378156', true],
    ['#W2378165', false],
    ['yusuf', true],
    ['4983901480', true],
    [262.47, true],
    [262.4, false],
    [19122, true],
    [['4983901480'], true],
    [['4983901480', '1151293680'], false],
  ])('%j grounded → %s', (value, expected) => expect(isGrounded(value, context)).toBe(expected));
});

describe('isIdentifier', () => {
  it.each<[unknown, string, boolean]>([
    ['PEP4E0', 'reservation_id', true],
    ['raj_sanchez_7340', 'user_id', true],
    ['#W2378156', 'order_id', true],
    [1769, 'person_id', true],
    [3, 'total_baggages', false],
    ['2024-05-18', 'date', false],
    ['ordered by mistake', 'reason', false],
    ['economy', 'cabin', false],
    ['8538875209', 'item_ids', true],
  ])('%j as %s → %s', (value, argument, expected) =>
    expect(isIdentifier(value, argument)).toBe(expected),
  );
});
