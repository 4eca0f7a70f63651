/**
 * Error incidence (paper §3.3 "Error Taxonomy", Table 1 E1–E6; Fig. 3, 58, 59): the share of cases
 * whose verdict flags each error. Denominator: every case of the group, so rows without a verdict
 * (planner or judge failures) count as flag-free cases; a case may carry several errors.
 */
import type { ResultRow } from './result-row.js';

/** The E1–E6 keys as table columns. */
export const ERROR_KEYS = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
/** `e1`…`e6`. */
export type ErrorKey = (typeof ERROR_KEYS)[number];

/** Cases flagged with each error. */
export type ErrorCounts = Record<ErrorKey, number>;
/** Percent of cases flagged with each error (0–100, unrounded); null for an empty group. */
export type ErrorRates = Record<ErrorKey, number | null>;

/** Counts the cases flagged with each of E1–E6. */
export function errorCounts(rows: readonly ResultRow[]): ErrorCounts {
  const counts: ErrorCounts = { e1: 0, e2: 0, e3: 0, e4: 0, e5: 0, e6: 0 };
  for (const row of rows) {
    ERROR_KEYS.forEach((key, index) => {
      if (row.errors[index]) counts[key] += 1;
    });
  }
  return counts;
}

/** Incidence of each error as a percent of all cases of the group (Table 1 E1–E6). */
export function errorRates(rows: readonly ResultRow[]): ErrorRates {
  const counts = errorCounts(rows);
  const n = rows.length;
  return mapErrors((key) => (n > 0 ? (100 * counts[key]) / n : null));
}

/** Builds an error record from a function of the key. */
export function mapErrors<T>(value: (key: ErrorKey) => T): Record<ErrorKey, T> {
  return {
    e1: value('e1'),
    e2: value('e2'),
    e3: value('e3'),
    e4: value('e4'),
    e5: value('e5'),
    e6: value('e6'),
  };
}

/** Error data for one bar of Fig. 3 / 58 / 59: counts, incidence, and each error's share of all flags. */
export interface ErrorDistribution {
  n: number;
  /** Cases with at least one error flag. */
  flagged: number;
  counts: ErrorCounts;
  rates: ErrorRates;
  /** Percent of all error flags in the group that are this error (sums to 100 when any flag exists). */
  shares: ErrorRates;
}

/** Counts, incidence and share of each error in a group (data for the paper's error-distribution figures). */
export function errorDistribution(rows: readonly ResultRow[]): ErrorDistribution {
  const counts = errorCounts(rows);
  const totalFlags = ERROR_KEYS.reduce((sum, key) => sum + counts[key], 0);
  return {
    n: rows.length,
    flagged: rows.filter((row) => row.errors.some(Boolean)).length,
    counts,
    rates: errorRates(rows),
    shares: mapErrors((key) => (totalFlags > 0 ? (100 * counts[key]) / totalFlags : null)),
  };
}
