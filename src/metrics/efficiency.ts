/**
 * Efficiency-aware planning (paper §5.4, C.8; Table 5): CR, grade and the average plan cost over all
 * cases (C_all), over the cases this model solved (C_pass) and over the cases every model of the
 * comparison solved (C_com). Cost = `findings.planCost.predictedCost`. Choices (docs/metrics.md,
 * "Efficiency"):
 * - An answer with no plan (a refusal, a parse failure, a failed call, a chain without calls) has
 *   no plan cost: it is left out of every cost mean and counted in `no_plan`, so refusing is never
 *   the cheapest "plan". Rows with a plan but no cost annotation are counted in `costed` as before.
 * - C_com is over the cases every *model* under the same judge solved: baselines (`baseline:…`)
 *   are left out of that set, so adding one to a leaderboard does not change the models' C_com; a
 *   comparison of baselines only uses them all.
 * - A case is "solved" by a model when every one of its rows (repeats) for that case is correct.
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
  /** Rows without a plan (refusal, parse failure, failed call, no call): no cost, left out of the means. */
  no_plan: number;
};

/** Whether a row holds a plan that could have a cost (not a refusal, parse failure, failed call or empty chain). */
export function hasPlan(row: ResultRow): boolean {
  if (row.plannerStatus !== 'ok' || !row.findings) return false;
  if (row.findings.refusal?.refused) return false;
  return (row.findings.planCost?.predictedSteps ?? 0) > 0;
}

/** The predicted plan's total tool cost, or null when unknown or when there is no plan. */
export function planCostOf(row: ResultRow): number | null {
  return hasPlan(row) ? (row.findings?.planCost?.predictedCost ?? null) : null;
}

/** Whether a model id names a baseline (a floor or a ceiling, not a model: kept out of C_com's common set). */
export function isBaseline(model: string): boolean {
  return model.startsWith('baseline:');
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
  return {
    mean: costs.length > 0 ? costs.reduce((sum, cost) => sum + cost, 0) / costs.length : null,
    count: costs.length,
  };
}

/** Table 5 for one model: CR, grade, C_all, C_pass and C_com (given the commonly solved cases). */
export function efficiencyRow(
  rows: readonly ResultRow[],
  common: ReadonlySet<string>,
): EfficiencyRow {
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
    no_plan: rows.filter((row) => !hasPlan(row)).length,
  };
}
