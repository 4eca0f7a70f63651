/**
 * Unsolvable planning (paper §3.1, §4.2.4, C.6; Table 1 Conf/Info/Tool/Vis): the pass rate per
 * unsolvable type, a pass being the judge's verdict that the answer correctly refused (`correct`).
 * Denominator: every case of the type; planner and judge failures count as not passed. The share of
 * answers the judge marked `refused` is reported beside it where judgements carry that key.
 */
import type { UnsolvableType } from '../dataset/case.js';
import {
  correctnessRate,
  failureCounts,
  isCorrect,
  type FailureCounts,
} from './correctness-rate.js';
import type { Interval } from './intervals.js';
import type { ResultRow } from './result-row.js';

/** Table 1's Unsolvable columns and the type each names. */
export const UNSOLVABLE_COLUMNS = {
  conf: 'contradictory_constraints',
  info: 'information_missing',
  tool: 'tool_removal',
  vis: 'visual_missing',
} as const satisfies Record<string, UnsolvableType>;
/** `conf`, `info`, `tool` or `vis`. */
export type UnsolvableColumn = keyof typeof UNSOLVABLE_COLUMNS;
const COLUMNS = Object.keys(UNSOLVABLE_COLUMNS) as UnsolvableColumn[];

/** Table 1's Unsolvable block: pass rate (%) per type, with per-type n and 95 % intervals. */
export interface UnsolvableBlock extends FailureCounts, Record<UnsolvableColumn, number | null> {
  /** Passes over all unsolvable cases of every type. */
  passed: number;
  n_by_type: Record<UnsolvableColumn, number>;
  ci_by_type: Record<UnsolvableColumn, Interval | null>;
  /**
   * Percent of cases the judge marked `refused: true` (over cases whose judgement says either way);
   * null when none says.
   */
  refused: number | null;
  /** Rows whose unsolvable type is missing or unknown (counted in n, in no column). */
  untyped: number;
}

/** Share of rows whose judgement says `refused: true`, over the rows that carry the key. */
export function refusedShare(rows: readonly ResultRow[]): number | null {
  const known = rows.filter((row) => row.refused !== null);
  return known.length > 0 ? (100 * known.filter((row) => row.refused).length) / known.length : null;
}

/** Pass (correct-refusal) rate per unsolvable type (Table 1 Unsolvable). */
export function unsolvableBlock(rows: readonly ResultRow[]): UnsolvableBlock {
  const byType = (column: UnsolvableColumn) =>
    rows.filter((row) => row.facets.unsolvableType === UNSOLVABLE_COLUMNS[column]);
  const rates = Object.fromEntries(
    COLUMNS.map((column) => [column, correctnessRate(byType(column))]),
  ) as Record<UnsolvableColumn, ReturnType<typeof correctnessRate>>;
  const pick = <T>(value: (column: UnsolvableColumn) => T) =>
    Object.fromEntries(COLUMNS.map((column) => [column, value(column)])) as Record<
      UnsolvableColumn,
      T
    >;
  return {
    ...failureCounts(rows),
    ...pick((column) => rates[column].cr),
    passed: rows.filter(isCorrect).length,
    n_by_type: pick((column) => rates[column].n),
    ci_by_type: pick((column) => rates[column].cr_ci),
    refused: refusedShare(rows),
    untyped: rows.filter(
      (row) => !Object.values(UNSOLVABLE_COLUMNS).includes(row.facets.unsolvableType as never),
    ).length,
  };
}
