import { describe, expect, it } from 'vitest';
import { fakeRow } from './fake-rows.fixture.js';
import { passAtK, passHatK, repeatStats } from './repeats.js';

describe('passAtK / passHatK', () => {
  it.each([
    // pass@2 = 1 − C(3,2)/C(5,2) = 1 − 3/10; pass^2 = C(2,2)/C(5,2) = 1/10
    { n: 5, c: 2, k: 2, at: 0.7, hat: 0.1 },
    // k = 1 reduces to c/n for both
    { n: 5, c: 2, k: 1, at: 0.4, hat: 0.4 },
    // all correct / none correct
    { n: 3, c: 3, k: 3, at: 1, hat: 1 },
    { n: 3, c: 0, k: 2, at: 0, hat: 0 },
    // pass@3 with n = 4, c = 1: 1 − C(3,3)/C(4,3) = 1 − 1/4
    { n: 4, c: 1, k: 3, at: 0.75, hat: 0 },
  ])('n=$n c=$c k=$k', ({ n, c, k, at, hat }) => {
    expect(passAtK(n, c, k)).toBeCloseTo(at, 12);
    expect(passHatK(n, c, k)).toBeCloseTo(hat, 12);
  });

  it('refuses k > n', () => {
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
  });
});

describe('repeatStats', () => {
  it('averages per-case estimates and skips cases with too few repeats', () => {
    const repeats = (id: string, pattern: string) =>
      [...pattern].map((mark, repeat) => fakeRow({ id, repeat, correct: mark === '1' }));
    // case a: n=5, c=2 → pass@2 0.7, pass^2 0.1; case b: n=5, c=5 → 1, 1; case c: n=1 → skipped
    const rows = [...repeats('a', '11000'), ...repeats('b', '11111'), ...repeats('c', '1')];
    const stats = repeatStats(rows, 2);
    expect(stats).toMatchObject({ k: 2, cases: 2, skipped: 1 });
    expect(stats.pass_at_k).toBeCloseTo(85, 10);
    expect(stats.pass_hat_k).toBeCloseTo(55, 10);
  });

  it('is null when no case has k repeats', () => {
    expect(repeatStats([fakeRow()], 2)).toMatchObject({
      cases: 0,
      skipped: 1,
      pass_at_k: null,
      pass_hat_k: null,
    });
  });
});
