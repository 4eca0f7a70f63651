/**
 * The appendix breakdowns (paper Appendix G): holistic planning by reference step range (Table 12,
 * error COUNTS as printed) and by modality (Table 13), step-wise planning by horizon (Table 14) and
 * by trajectory stage (Table 15). Each row is a `summarize` cell of the rows with that facet value;
 * values absent from the data give no row.
 */
import { errorCounts, type ErrorKey } from './error-incidence.js';
import type { ResultRow } from './result-row.js';
import { summarize, type CellSummary } from './summary.js';

/** Table 12's reference-length buckets. */
export const STEP_RANGES = ['1-5', '6-10', '11-15', '16-20', '>20'] as const;
/** One of Table 12's buckets. */
export type StepRange = (typeof STEP_RANGES)[number];

/** The bucket of a reference step count; counts of 5 or fewer (including 0) fall in 1-5. */
export function stepRangeOf(steps: number): StepRange {
  if (steps <= 5) return '1-5';
  if (steps <= 10) return '6-10';
  if (steps <= 15) return '11-15';
  if (steps <= 20) return '16-20';
  return '>20';
}

/** Groups rows by a facet value in a fixed order, keeping only values that occur. */
export function breakdown<K>(
  rows: readonly ResultRow[],
  keyOf: (row: ResultRow) => K,
  order: readonly K[],
): { key: K; rows: ResultRow[] }[] {
  const seen = new Set(rows.map(keyOf));
  const extra = [...seen].filter((key) => !order.includes(key));
  return [...order.filter((key) => seen.has(key)), ...extra].map((key) => ({
    key,
    rows: rows.filter((row) => keyOf(row) === key),
  }));
}

/** Table 12 row: a step range's cell plus the error counts the paper prints (`e1_n`…`e6_n`). */
export type StepRangeRow = CellSummary & { steps_range: StepRange } & Record<
    `${ErrorKey}_n`,
    number
  >;

/** Holistic planning by reference step range (Table 12). */
export function byStepRange(rows: readonly ResultRow[]): StepRangeRow[] {
  return breakdown(rows, (row) => stepRangeOf(row.facets.referenceSteps), STEP_RANGES).map(
    ({ key, rows: group }) => {
      const counts = errorCounts(group);
      return {
        steps_range: key,
        ...summarize(group),
        e1_n: counts.e1,
        e2_n: counts.e2,
        e3_n: counts.e3,
        e4_n: counts.e4,
        e5_n: counts.e5,
        e6_n: counts.e6,
      };
    },
  );
}

/** Holistic planning by input modality text / image / video (Table 13). */
export function byModality(rows: readonly ResultRow[]): (CellSummary & { modality: string })[] {
  return breakdown(rows, (row) => row.facets.modality, ['text', 'image', 'video'] as string[]).map(
    ({ key, rows: group }) => ({ modality: key, ...summarize(group) }),
  );
}

/** Step-wise planning by prediction horizon 1 / 2 / 3 (Table 14); a missing horizon forms its own `null` row. */
export function byHorizon(
  rows: readonly ResultRow[],
): (CellSummary & { horizon: number | null })[] {
  return breakdown(rows, (row) => row.facets.horizon as number | null, [1, 2, 3]).map(
    ({ key, rows: group }) => ({ horizon: key, ...summarize(group) }),
  );
}

/** Step-wise planning by trajectory stage early / middle / late (Table 15). */
export function byStage(rows: readonly ResultRow[]): (CellSummary & { stage: string | null })[] {
  return breakdown(rows, (row) => row.facets.stage as string | null, [
    'early',
    'middle',
    'late',
  ]).map(({ key, rows: group }) => ({ stage: key, ...summarize(group) }));
}
