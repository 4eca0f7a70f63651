/**
 * Metrics over repeated runs of the same case (`--repeats K`): pass@k, the unbiased estimator of
 * the chance that at least one of k draws is correct (Chen et al. 2021), and pass^k, the chance that
 * all k draws are correct (Yao et al. 2024, τ-bench). Each is computed per case from its n repeats
 * and c correct ones, then averaged over cases; cases with fewer than k repeats are skipped and counted.
 */
import { isCorrect } from './correctness-rate.js';
import type { ResultRow } from './result-row.js';

/** C(n, k) as a float (exact for the small n of repeats). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

/** pass@k for one case: 1 − C(n−c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass@k needs k ≤ n (k=${k}, n=${n})`);
  return 1 - choose(n - c, k) / choose(n, k);
}

/** pass^k for one case: C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^k needs k ≤ n (k=${k}, n=${n})`);
  return choose(c, k) / choose(n, k);
}

/** pass@k and pass^k averaged over the cases of one model and judge (percent). */
export interface RepeatStats {
  k: number;
  /** Cases with at least k repeats (the averages' denominator). */
  cases: number;
  /** Cases skipped for having fewer than k repeats. */
  skipped: number;
  pass_at_k: number | null;
  pass_hat_k: number | null;
}

/** pass@k and pass^k over the cases in `rows` (one model and judge), grouping repeats by (split, id). */
export function repeatStats(rows: readonly ResultRow[], k: number): RepeatStats {
  const perCase = new Map<string, { n: number; c: number }>();
  for (const row of rows) {
    const key = `${row.facets.split}\u0000${row.id}`;
    const entry = perCase.get(key) ?? { n: 0, c: 0 };
    entry.n += 1;
    if (isCorrect(row)) entry.c += 1;
    perCase.set(key, entry);
  }
  const eligible = [...perCase.values()].filter((entry) => entry.n >= k);
  const average = (value: (entry: { n: number; c: number }) => number) =>
    eligible.length > 0
      ? (100 * eligible.reduce((sum, entry) => sum + value(entry), 0)) / eligible.length
      : null;
  return {
    k,
    cases: eligible.length,
    skipped: perCase.size - eligible.length,
    pass_at_k: average((entry) => passAtK(entry.n, entry.c, k)),
    pass_hat_k: average((entry) => passHatK(entry.n, entry.c, k)),
  };
}
