/**
 * Efficiency-aware planning (paper §5.4, C.8; Table 5): CR, grade and the average plan cost over all
 * cases (C_all), over the cases this model solved (C_pass) and over the cases every model of the
 * comparison solved (C_com). Cost = `findings.planCost.predictedCost`; rows without a cost (no
 * plan, no cost annotation) are left out of the cost means and counted in `costed`. A case is
 * "solved" by a model when every one of its rows (repeats) for that case is correct.
 */
import { isCorrect } from './correctness-rate.js';
import type { ResultRow } from './result-row.js';
import { summarize, type CellSummary } from './summary.js';

/** Table 5 row body: the cell plus the three cost means and their denominators. */
export type EfficiencyRow = CellSummary & {
  c_all: number | null;
  c_pass: number | null;
  c_com: number | null;
  /** Rows with a known cost, over all / solved / commonly solved cases. */
  costed: number;
  costed_pass: number;
  costed_com: number;
  /** Cases solved by every model of the comparison. */
  common_cases: number;
};

/** The predicted plan's total tool cost, or null when unknown. */
export function planCostOf(row: ResultRow): number | null {
  return row.findings?.planCost?.predictedCost ?? null;
}

/** A case's identity across models: split and id. */
export function caseKeyOf(row: ResultRow): string {
  return `${row.facets.split}\u0000${row.id}`;
}

/** Cases of one model whose every row is correct. */
export function solvedCases(rows: readonly ResultRow[]): Set<string> {
  const failed = new Set(rows.filter((row) => !isCorrect(row)).map(caseKeyOf));
  return new Set(rows.map(caseKeyOf).filter((key) => !failed.has(key)));
}

/** Cases solved by every group (each group = one model's rows); empty when there is no group. */
export function commonlySolved(groups: readonly (readonly ResultRow[])[]): Set<string> {
  const [first, ...rest] = groups.map(solvedCases);
  if (!first) return new Set();
  return new Set([...first].filter((key) => rest.every((solved) => solved.has(key))));
}

function meanCost(rows: readonly ResultRow[]): { mean: number | null; count: number } {
  const costs = rows.map(planCostOf).filter((cost): cost is number => cost !== null);
  return { mean: costs.length > 0 ? costs.reduce((sum, cost) => sum + cost, 0) / costs.length : null, count: costs.length };
}

/** Table 5 for one model: CR, grade, C_all, C_pass and C_com (given the commonly solved cases). */
export function efficiencyRow(rows: readonly ResultRow[], common: ReadonlySet<string>): EfficiencyRow {
  const all = meanCost(rows);
  const pass = meanCost(rows.filter(isCorrect));
  const com = meanCost(rows.filter((row) => common.has(caseKeyOf(row))));
  return {
    ...summarize(rows),
    c_all: all.mean,
    c_pass: pass.mean,
    c_com: com.mean,
    costed: all.count,
    costed_pass: pass.count,
    costed_com: com.count,
    common_cases: common.size,
  };
}
