import { describe, expect, it } from 'vitest';
import { compositeWilson, wilson } from './intervals.js';

// Wilson: centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) · √(p(1−p)/n + z²/4n²), z = 1.959964, z² = 3.841459.
describe('wilson', () => {
  it.each([
    // 8/10: 1 + z²/n = 1.3841459; centre = (0.8 + 0.1920729) / 1.3841459 = 0.7167401;
    // half = 1.4160093 · √(0.016 + 0.0096036) = 1.4160093 · 0.1600113 = 0.2265776 → [49.016, 94.332]
    { successes: 8, n: 10, lo: 49.016, hi: 94.332 },
    // 0/10: centre = 0.1920729 / 1.3841459 = 0.1387664 = half → [0, 27.753]
    { successes: 0, n: 10, lo: 0, hi: 27.753 },
    // 10/10: mirror image of 0/10 → [72.247, 100]
    { successes: 10, n: 10, lo: 72.247, hi: 100 },
    // 150/300: centre 0.5; half = (1.959964 / 1.0128049) · √(0.25/300 + 3.841459/360000) = 1.9351844 · 0.0290517 = 0.0562205
    { successes: 150, n: 300, lo: 44.378, hi: 55.622 },
  ])('$successes/$n → [$lo, $hi]', ({ successes, n, lo, hi }) => {
    const interval = wilson(successes, n)!;
    expect(interval.lo).toBeCloseTo(lo, 3);
    expect(interval.hi).toBeCloseTo(hi, 3);
  });

  it('is null for an empty group', () => {
    expect(wilson(0, 0)).toBeNull();
  });
});

function expectSameInterval(
  actual: ReturnType<typeof wilson>,
  expected: ReturnType<typeof wilson>,
) {
  expect(actual!.lo).toBeCloseTo(expected!.lo, 9);
  expect(actual!.hi).toBeCloseTo(expected!.hi, 9);
}

describe('compositeWilson (Kish effective n)', () => {
  it('equals the pooled Wilson interval when strata are equal', () => {
    // two strata of 150: n_eff = 1 / (2 · 0.25/150) = 300
    expectSameInterval(compositeWilson(50, [150, 150]), wilson(150, 300));
  });

  it('uses n_eff = 1 / Σ(w²/n_i) for unequal strata', () => {
    // strata of 4 and 2 (w = 1/2): n_eff = 1 / (0.25/4 + 0.25/2) = 1 / 0.1875 = 5.333; p = 0.625 → [25.506, 89.027]
    const interval = compositeWilson(62.5, [4, 2])!;
    expect(interval.lo).toBeCloseTo(25.506, 3);
    expect(interval.hi).toBeCloseTo(89.027, 3);
  });

  it('ignores empty strata and is null without any', () => {
    expectSameInterval(compositeWilson(50, [300, 0]), wilson(150, 300));
    expect(compositeWilson(null, [10])).toBeNull();
    expect(compositeWilson(50, [0, 0])).toBeNull();
  });
});
