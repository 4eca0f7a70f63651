/**
 * Paired comparison of two result sets on their shared cases: the exact (binomial) McNemar test on
 * the discordant pairs, with a plain verdict. Cases pair on (split, id, repeat); see docs/metrics.md.
 */
import { isCorrect } from './correctness-rate.js';
import type { ResultRow } from './result-row.js';

/** The verdict of a paired comparison at the 95 % level. */
export type PairedVerdict = 'A ahead' | 'B ahead' | 'not distinguishable at 95 %';

/** The outcome of comparing A and B on their shared cases. */
export interface PairedComparison {
  /** Cases both sides have. */
  shared: number;
  /** Shared cases A got right and B wrong. */
  a_only: number;
  /** Shared cases B got right and A wrong. */
  b_only: number;
  both: number;
  neither: number;
  /** Two-sided exact McNemar p-value; 1 when there is no discordant pair. */
  p_value: number;
  verdict: PairedVerdict;
}

/**
 * Two-sided exact McNemar p-value for b and c discordant pairs: 2 · P(X ≤ min(b, c)) with
 * X ~ Binomial(b + c, 1/2), capped at 1. The binomial terms are built in log space, so large
 * counts neither overflow nor underflow.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const low = Math.min(b, c);
  let logTerm = -n * Math.LN2;
  let tail = Math.exp(logTerm);
  for (let k = 1; k <= low; k += 1) {
    logTerm += Math.log(n - k + 1) - Math.log(k);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

const pairKey = (row: ResultRow) => `${row.facets.split}\u0000${row.id}\u0000${row.repeat}`;

/**
 * Compares A and B on the cases both have (exact McNemar; "A ahead" when p < 0.05 and A wins more
 * discordant pairs).
 */
export function comparePaired(
  aRows: readonly ResultRow[],
  bRows: readonly ResultRow[],
  alpha = 0.05,
): PairedComparison {
  const bByKey = new Map(bRows.map((row) => [pairKey(row), row]));
  const counts = { shared: 0, a_only: 0, b_only: 0, both: 0, neither: 0 };
  const seen = new Set<string>();
  for (const a of aRows) {
    const key = pairKey(a);
    const b = bByKey.get(key);
    if (!b || seen.has(key)) continue;
    seen.add(key);
    counts.shared += 1;
    const [aRight, bRight] = [isCorrect(a), isCorrect(b)];
    if (aRight && bRight) counts.both += 1;
    else if (aRight) counts.a_only += 1;
    else if (bRight) counts.b_only += 1;
    else counts.neither += 1;
  }
  const pValue = mcnemarExact(counts.a_only, counts.b_only);
  const verdict: PairedVerdict =
    pValue >= alpha
      ? 'not distinguishable at 95 %'
      : counts.a_only > counts.b_only
        ? 'A ahead'
        : 'B ahead';
  return { ...counts, p_value: pValue, verdict };
}
