/**
 * Tool-extraneous metrics (paper §3.1, §4.2.2, C.5; Tables 1, 2, 16, 17, 18). Choices, reproduced
 * from the paper's own numbers (docs/metrics.md, "Tool-extraneous"):
 * - ExtUse / TC = total calls to distractor tools (`findings.distractorUse.count`), null when an
 *   answered row lacks findings (official-harness lines); a failed planner row contributes 0.
 * - Each half (holistic, step-wise) is POOLED over the distractor levels (count / cases), which is
 *   how Table 18 "Red" is printed (Claude holistic 500/746 = 67.02, not the level mean 67.04).
 * - Table 1 Tool-Extraneous = unweighted mean of the two halves; E2-H = the holistic half's E2
 *   (task incompleteness), E2-S = the step-wise half's E2 (premature conclusion). The paper prints
 *   these two values under swapped headers.
 * - Matched pairs (Table 2 CR_B / CR_E / Δ, Table 18 Orig / Red / Δ): both sides over the same base
 *   cases only, the base-case keys that have rows on both sides; each side pooled over its rows
 *   there (base rows; extraneous rows of every level). Δ = CR_E − CR_B over those pairs. The
 *   pooled CR_E over every extraneous row stays beside it (`cr_red_pooled`), with the counts of
 *   matched keys and of the rows on each side that have no partner. In the released data every
 *   variant has its base, so matched and pooled agree; on converted data (restbench: 15 of 50
 *   step-wise variants share a base cut) they do not.
 */
import type { CorrectnessRate, FailureCounts } from './correctness-rate.js';
import type { Interval } from './intervals.js';
import type { ResultRow } from './result-row.js';
import { meanOfCells, summarize, type CellSummary } from './summary.js';

/** Total distractor-tool uses (Tables 16/17 ExtUse, Table 2 TC); null when unknown or the group is empty. */
export function extUse(rows: readonly ResultRow[]): number | null {
  if (rows.length === 0) return null;
  let total = 0;
  for (const row of rows) {
    if (row.plannerStatus !== 'ok') continue;
    const use = row.findings?.distractorUse;
    if (!use) return null;
    total += use.count;
  }
  return total;
}

/** One row of Table 16 / 17: a distractor level's cell plus its distractor uses. */
export type LevelRow = CellSummary & { level: number | null; ext_use: number | null };

/** Cells per distractor level (2/4/6/8/10 in the paper), ascending; rows without a level come last. */
export function byDistractorLevel(rows: readonly ResultRow[]): LevelRow[] {
  const levels = [...new Set(rows.map((row) => row.facets.distractorLevel))].sort(
    (a, b) => (a ?? Infinity) - (b ?? Infinity),
  );
  return levels.map((level) => {
    const group = rows.filter((row) => row.facets.distractorLevel === level);
    return { level, ext_use: extUse(group), ...summarize(group) };
  });
}

/** The base-split rows whose base-case key matches one of the extraneous rows (pass rows of one model and judge). */
export function matchedBaseRows(
  baseRows: readonly ResultRow[],
  extraneousRows: readonly ResultRow[],
): ResultRow[] {
  const keys = new Set(extraneousRows.map((row) => row.facets.baseCaseKey));
  return baseRows.filter((row) => keys.has(row.facets.baseCaseKey));
}

/**
 * One half of Table 18 (and Table 2): base ("Orig") against extraneous ("Red") over matched pairs,
 * and the pooled "Red".
 */
export interface BaseVsExtraneous {
  /** Base rows of the matched keys. */
  cr_orig: number | null;
  /** Extraneous rows of the matched keys (the paired CR_E). */
  cr_red: number | null;
  /** Matched-pair difference cr_red − cr_orig. */
  cr_delta: number | null;
  /** Every extraneous row, pooled over levels, matched or not (labelled "pooled" wherever shown). */
  cr_red_pooled: number | null;
  grade_orig: number | null;
  grade_red: number | null;
  grade_delta: number | null;
  cr_orig_ci: Interval | null;
  cr_red_ci: Interval | null;
  cr_red_pooled_ci: Interval | null;
  n_orig: number;
  n_red: number;
  n_red_pooled: number;
  /** Base-case keys with rows on both sides. */
  n_pairs: number;
  /** Extraneous rows whose base case has no row (left out of the paired figures). */
  n_red_unmatched: number;
  /** Total distractor uses over every extraneous row (Table 2 TC). */
  tc: number | null;
  orig_failures: FailureCounts;
  red_failures: FailureCounts;
}

const difference = (a: number | null, b: number | null) =>
  a === null || b === null ? null : a - b;
const failuresOf = (cell: CorrectnessRate): FailureCounts => ({
  n: cell.n,
  errors: cell.errors,
  parse_errors: cell.parse_errors,
  judge_errors: cell.judge_errors,
});

/** Base against extraneous for one regime over matched pairs (Table 18 row half; Table 2 CR_B / CR_E / Δ / TC). */
export function baseVsExtraneous(
  baseRows: readonly ResultRow[],
  extraneousRows: readonly ResultRow[],
): BaseVsExtraneous {
  const baseKeys = new Set(baseRows.map((row) => row.facets.baseCaseKey));
  const pairedRed = extraneousRows.filter((row) => baseKeys.has(row.facets.baseCaseKey));
  const orig = summarize(matchedBaseRows(baseRows, extraneousRows));
  const red = summarize(pairedRed);
  const pooled = summarize(extraneousRows);
  return {
    cr_orig: orig.cr,
    cr_red: red.cr,
    cr_delta: difference(red.cr, orig.cr),
    cr_red_pooled: pooled.cr,
    grade_orig: orig.grade,
    grade_red: red.grade,
    grade_delta: difference(red.grade, orig.grade),
    cr_orig_ci: orig.cr_ci,
    cr_red_ci: red.cr_ci,
    cr_red_pooled_ci: pooled.cr_ci,
    n_orig: orig.n,
    n_red: red.n,
    n_red_pooled: pooled.n,
    n_pairs: new Set(pairedRed.map((row) => row.facets.baseCaseKey)).size,
    n_red_unmatched: extraneousRows.length - pairedRed.length,
    tc: extUse(extraneousRows),
    orig_failures: failuresOf(orig),
    red_failures: failuresOf(red),
  };
}

/** Table 1's Tool-Extraneous block (CONTRACT.md keys, plus CI, counts and failures). */
export type ToolExtraneousBlock = Omit<CellSummary, 'e2'> & {
  e2_h: number | null;
  e2_s: number | null;
};

/** Table 1 Tool-Extraneous: mean of the holistic and step-wise halves, each pooled over levels; E2 kept per half. */
export function toolExtraneousBlock(
  holisticRows: readonly ResultRow[],
  stepWiseRows: readonly ResultRow[],
): ToolExtraneousBlock {
  const holistic = summarize(holisticRows);
  const stepWise = summarize(stepWiseRows);
  const { e2: _mixed, ...composite } = meanOfCells([holistic, stepWise]);
  return { ...composite, e2_h: holistic.e2, e2_s: stepWise.e2 };
}
