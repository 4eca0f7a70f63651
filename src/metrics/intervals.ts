/**
 * 95 % confidence intervals for correctness rates: the Wilson score interval for a plain rate, and
 * the same interval at the Kish effective sample size for composites (means of rates over strata).
 * See docs/metrics.md ("Confidence intervals").
 */

/** An interval in percent (0–100), like the rates it brackets. */
export interface Interval {
  lo: number;
  hi: number;
}

/** The two-sided 95 % normal quantile. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for `successes` out of `n` (Wilson 1927), in percent; null when n is 0.
 * Unlike the Wald interval it stays inside [0, 100] and is sensible at 0 and n successes.
 */
export function wilson(successes: number, n: number, z: number = Z95): Interval | null {
  if (n <= 0) return null;
  return wilsonAt(successes / n, n, z);
}

function wilsonAt(p: number, n: number, z: number): Interval {
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p = 0 or 1 one bound is exactly 0 or 100; floating point would miss it by an ulp.
  return {
    lo: p === 0 ? 0 : Math.max(0, centre - half) * 100,
    hi: p === 1 ? 100 : Math.min(1, centre + half) * 100,
  };
}

/**
 * Interval of a composite rate (an unweighted mean of stratum rates, e.g. Table 1 step-wise over
 * horizons): the Wilson interval at the composite rate with the Kish effective sample size
 * n_eff = 1 / Σ (w_i² / n_i), w_i = 1/k. With equal strata n_eff = Σ n_i, so the interval equals
 * the Wilson interval of the pooled counts. Null when no stratum has cases.
 */
export function compositeWilson(
  ratePercent: number | null,
  sizes: readonly number[],
  z: number = Z95,
): Interval | null {
  const present = sizes.filter((size) => size > 0);
  if (ratePercent === null || present.length === 0) return null;
  const weight = 1 / present.length;
  const effective = 1 / present.reduce((sum, size) => sum + (weight * weight) / size, 0);
  return wilsonAt(ratePercent / 100, effective, z);
}

/** One cluster of a clustered rate: the repeated draws of one case. */
export interface Cluster {
  successes: number;
  n: number;
}

/**
 * Design effect of a rate whose draws come in clusters (the repeats of one case): the
 * cluster-robust variance, k/(k−1) · Σ (s_i − p·n_i)² / N², over the simple-random-sampling one,
 * p(1−p)/N (the clustered standard error inspect_ai offers for repeated epochs). 1 with fewer than
 * two clusters or a rate of 0 or 1, where both variances vanish.
 */
export function designEffect(clusters: readonly Cluster[]): number {
  const present = clusters.filter((cluster) => cluster.n > 0);
  const total = present.reduce((sum, cluster) => sum + cluster.n, 0);
  const k = present.length;
  if (k < 2) return 1;
  const p = present.reduce((sum, cluster) => sum + cluster.successes, 0) / total;
  if (p === 0 || p === 1) return 1;
  const squares = present.reduce((sum, c) => sum + (c.successes - p * c.n) ** 2, 0);
  const clustered = (k / (k - 1)) * (squares / (total * total));
  return clustered / ((p * (1 - p)) / total);
}

/**
 * Wilson interval of a clustered rate at the effective sample size N / deff, with the design
 * effect; the effect is floored at 1, so repeats never make an interval narrower than counting
 * every draw as independent. Null when there is no draw.
 */
export function clusteredWilson(
  clusters: readonly Cluster[],
  z: number = Z95,
): { ci: Interval | null; design_effect: number } {
  const total = clusters.reduce((sum, cluster) => sum + cluster.n, 0);
  const design_effect = designEffect(clusters);
  if (total <= 0) return { ci: null, design_effect };
  const successes = clusters.reduce((sum, cluster) => sum + cluster.successes, 0);
  return { ci: wilsonAt(successes / total, total / Math.max(1, design_effect), z), design_effect };
}
