import { describe, expect, it } from 'vitest';
import { clusteredWilson, compositeWilson, designEffect, wilson } from './intervals.js';
import { correctnessRate } from './correctness-rate.js';
import { fakeRow } from './fake-rows.fixture.js';

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
    // 150/300: centre 0.5; half = (1.959964 / 1.0128049) · √(0.25/300 + 3.841459/360000) =
    // 1.9351844 · 0.0290517 = 0.0562205
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

describe('clustered by case (repeats)', () => {
  // Cases A 3/3, B 0/3, C 3/3: N = 9, p = 2/3, Σ(s_i − p·n_i)² = 1 + 4 + 1 = 6, k = 3.
  // Clustered variance 3/2 · 6/81 = 1/9; simple 2/9 · 1/9 = 2/81; deff = (1/9)/(2/81) = 4.5 → n_eff = 2.
  const clusters = [
    { successes: 3, n: 3 },
    { successes: 0, n: 3 },
    { successes: 3, n: 3 },
  ];

  it('gives the design effect of a hand-computed example', () => {
    expect(designEffect(clusters)).toBeCloseTo(4.5, 12);
  });

  it('puts the Wilson interval at n_eff = N / deff', () => {
    // Wilson at p = 2/3, n = 2: [15.938, 95.474]
    const { ci, design_effect } = clusteredWilson(clusters);
    expect(design_effect).toBeCloseTo(4.5, 12);
    expect(ci!.lo).toBeCloseTo(15.938, 3);
    expect(ci!.hi).toBeCloseTo(95.474, 3);
  });

  it('never narrows the interval: a design effect under 1 counts as 1', () => {
    // every case 1 of 2: Σ(s_i − p·n_i)² = 0, deff 0
    const even = [1, 2, 3, 4].map(() => ({ successes: 1, n: 2 }));
    expect(designEffect(even)).toBe(0);
    expectSameInterval(clusteredWilson(even).ci, wilson(4, 8));
    expect(designEffect([{ successes: 2, n: 3 }])).toBe(1);
    expect(
      designEffect([
        { successes: 3, n: 3 },
        { successes: 2, n: 2 },
      ]),
    ).toBe(1);
  });

  it('clusters the correctness rate by case when a case has repeats, and only then', () => {
    const rows = ['A', 'B', 'C'].flatMap((id, index) =>
      [0, 1, 2].map((repeat) => fakeRow({ id, repeat, correct: index !== 1 })),
    );
    const rate = correctnessRate(rows);
    expect(rate.design_effect).toBeCloseTo(4.5, 12);
    expect(rate.cr_ci!.lo).toBeCloseTo(15.938, 3);
    const single = correctnessRate(rows.filter((row) => row.repeat === 0));
    expect(single.design_effect).toBeUndefined();
    expectSameInterval(single.cr_ci, wilson(2, 3));
  });
});
