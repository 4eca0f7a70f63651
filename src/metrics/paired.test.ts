import { describe, expect, it } from 'vitest';
import { fakeRow } from './fake-rows.fixture.js';
import { comparePaired, mcnemarExact } from './paired.js';

// Exact McNemar: p = min(1, 2 · P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2).
describe('mcnemarExact', () => {
  it.each([
    // n = 10: P(X ≤ 2) = (C(10,0) + C(10,1) + C(10,2)) / 2^10 = (1 + 10 + 45) / 1024 = 56/1024 → p = 112/1024
    { b: 8, c: 2, p: 112 / 1024 },
    // P(X ≤ 0) = 1/1024 → p = 2/1024
    { b: 10, c: 0, p: 2 / 1024 },
    // P(X ≤ 1) = 11/1024 → p = 22/1024 = 0.0215
    { b: 1, c: 9, p: 22 / 1024 },
    // b = c: 2 · P(X ≤ 3) with n = 6 = 2 · 42/64 > 1 → capped at 1
    { b: 3, c: 3, p: 1 },
    // no discordant pair
    { b: 0, c: 0, p: 1 },
  ])('b=$b c=$c → p=$p', ({ b, c, p }) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it('stays finite for large counts', () => {
    // b = c = 5000: the tail is about one half, p capped at 1
    expect(mcnemarExact(5000, 5000)).toBe(1);
    expect(mcnemarExact(5200, 4800)).toBeLessThan(0.001);
  });
});

describe('comparePaired', () => {
  const rows = (model: string, pattern: string) =>
    [...pattern].map((mark, index) => fakeRow({ id: `c${index}`, model, correct: mark === '1' }));

  it('pairs shared cases only and gives a verdict', () => {
    // A right on 10 cases where B is wrong, B never right alone: b = 10, c = 0 → p = 2/1024 → A ahead.
    const a = rows('a', '111111111111');
    const b = rows('b', '000000000011');
    const extra = fakeRow({ id: 'only-in-a', model: 'a' });
    const comparison = comparePaired([...a, extra], b);
    expect(comparison).toMatchObject({
      shared: 12,
      a_only: 10,
      b_only: 0,
      both: 2,
      neither: 0,
      verdict: 'A ahead',
    });
    expect(comparison.p_value).toBeCloseTo(2 / 1024, 12);
    expect(comparePaired(b, a).verdict).toBe('B ahead');
  });

  it('says "not distinguishable" when p ≥ 0.05', () => {
    // b = 8, c = 2 → p = 0.109
    const comparison = comparePaired(rows('a', '1111111100'), rows('b', '0000000011'));
    expect(comparison).toMatchObject({
      a_only: 8,
      b_only: 2,
      verdict: 'not distinguishable at 95 %',
    });
  });

  it('counts a planner or judge failure as not correct', () => {
    const a = [fakeRow({ id: 'x', plannerStatus: 'error' })];
    const b = [fakeRow({ id: 'x', model: 'b' })];
    expect(comparePaired(a, b)).toMatchObject({ shared: 1, a_only: 0, b_only: 1 });
  });
});
