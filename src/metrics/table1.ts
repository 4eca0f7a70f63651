/**
 * Paper Table 1 (§4.2) for one tested model and judge, in the CONTRACT.md "Table 1 in JSON" shape
 * (extended with CIs, counts and failures). Composition (ARCHITECTURE.md decision 5, audit §3.2):
 * holistic = every `holistic_planning` case; step-wise = unweighted mean over the horizons present
 * (1/2/3 in the paper); tool-extraneous = extraneous.ts; tool-broken = five shares summing to 100;
 * unsolvable = pass rate per type. Rates 0–100 and grades 0–1, unrounded.
 */
import type { SplitName } from '../dataset/case.js';
import { brokenToolBlock, type BrokenToolBlock } from './broken-tool-behaviour.js';
import { byHorizon } from './breakdowns.js';
import { toolExtraneousBlock, type ToolExtraneousBlock } from './extraneous.js';
import { unsolvableBlock, type UnsolvableBlock } from './refusal-rate.js';
import type { ResultRow } from './result-row.js';
import { meanOfCells, summarize, type CellSummary } from './summary.js';

/** Table 1's step-wise block: the mean over horizons, and which horizons it averages. */
export type StepWiseBlock = CellSummary & { horizons: (number | null)[] };

/** One row of Table 1. */
export interface Table1Row {
  model: string;
  judge: string;
  holistic: CellSummary;
  step_wise: StepWiseBlock;
  tool_extraneous: ToolExtraneousBlock;
  tool_broken: BrokenToolBlock;
  unsolvable: UnsolvableBlock;
}

/** The rows of one split. */
export function ofSplit(rows: readonly ResultRow[], split: SplitName): ResultRow[] {
  return rows.filter((row) => row.facets.split === split);
}

/** Table 1 step-wise: the unweighted mean over the horizons present (paper: (H1 + H2 + H3) / 3). */
export function stepWiseBlock(stepWiseRows: readonly ResultRow[]): StepWiseBlock {
  const horizons = byHorizon(stepWiseRows);
  return { ...meanOfCells(horizons), horizons: horizons.map((cell) => cell.horizon) };
}

/** Builds the Table 1 row of one tested model and judge from all of its (unrefined) rows. */
export function table1Row(model: string, judge: string, rows: readonly ResultRow[]): Table1Row {
  return {
    model,
    judge,
    holistic: summarize(ofSplit(rows, 'holistic_planning')),
    step_wise: stepWiseBlock(ofSplit(rows, 'step_wise_planning')),
    tool_extraneous: toolExtraneousBlock(
      ofSplit(rows, 'holistic_tool_extraneous'),
      ofSplit(rows, 'step_wise_tool_extraneous'),
    ),
    tool_broken: brokenToolBlock(ofSplit(rows, 'step_wise_tool_broken')),
    unsolvable: unsolvableBlock(ofSplit(rows, 'holistic_unsolvable')),
  };
}
