/**
 * Tool-broken behaviour (paper §4.2.3, C.4; Table 1 Rp/Al/Rt/Rf/Ot): the share of cases in each of
 * the five categories. Denominator: every case, so the five shares sum to 100. Rows with no
 * behaviour (planner failure, judge failure, or a judgement without the key) are counted as
 * `other`, as the legacy code maps any unknown category to other; `unclassified` says how many.
 */
import { BROKEN_BEHAVIORS, type BrokenBehavior } from '../judge/verdict.js';
import { failureCounts, type FailureCounts } from './correctness-rate.js';
import type { ResultRow } from './result-row.js';

/** Table 1's Tool-Broken block: percent of cases per behaviour, plus the counts behind them. */
export interface BrokenToolBlock extends FailureCounts, Record<BrokenBehavior, number | null> {
  counts: Record<BrokenBehavior, number>;
  /** Rows without a behaviour, counted under `other`. */
  unclassified: number;
}

/** Shares of the five tool-broken behaviours over all cases (Table 1 Tool-Broken). */
export function brokenToolBlock(rows: readonly ResultRow[]): BrokenToolBlock {
  const counts = Object.fromEntries(BROKEN_BEHAVIORS.map((behavior) => [behavior, 0])) as Record<
    BrokenBehavior,
    number
  >;
  let unclassified = 0;
  for (const row of rows) {
    if (row.behavior === null) unclassified += 1;
    counts[row.behavior ?? 'other'] += 1;
  }
  const n = rows.length;
  const shares = Object.fromEntries(
    BROKEN_BEHAVIORS.map((behavior) => [behavior, n > 0 ? (100 * counts[behavior]) / n : null]),
  ) as Record<BrokenBehavior, number | null>;
  return { ...failureCounts(rows), ...shares, counts, unclassified };
}
