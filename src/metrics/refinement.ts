/**
 * Inference-time refinement (paper §5.3, C.7; Table 4): base against refined CR per regime and per
 * method (self / critic × with / without the E1–E6 taxonomy). Refined rows carry `refinement`;
 * base rows are the same model's and judge's unrefined rows of the same (split, id, repeat), so
 * both rates cover the same cases. Regimes: holistic = `holistic_planning`, step-wise =
 * `step_wise_planning` (the paper refines only these). A McNemar comparison goes beside Δ.
 */
import type { SplitName } from '../dataset/case.js';
import type { Interval } from './intervals.js';
import { comparePaired, type PairedComparison } from './paired.js';
import type { ResultRow, RowRefinement } from './result-row.js';
import { summarize } from './summary.js';

/** Base against refined for one regime and method. */
export interface RefinementCell {
  base: number | null;
  refined: number | null;
  delta: number | null;
  base_ci: Interval | null;
  refined_ci: Interval | null;
  /** Refined rows, and base rows found for them. */
  n_refined: number;
  n_base: number;
  /** Refined (A) against base (B) on the shared cases. */
  paired: PairedComparison;
}

/** One Table 4 row body: a method and its holistic and step-wise cells. */
export interface RefinementRow extends RowRefinement {
  holistic: RefinementCell | null;
  step_wise: RefinementCell | null;
}

const REGIME_SPLITS: Record<'holistic' | 'step_wise', SplitName> = { holistic: 'holistic_planning', step_wise: 'step_wise_planning' };
const pairKey = (row: ResultRow) => `${row.facets.split}\u0000${row.id}\u0000${row.repeat}`;

function refinementCell(baseRows: readonly ResultRow[], refinedRows: readonly ResultRow[]): RefinementCell | null {
  if (refinedRows.length === 0) return null;
  const keys = new Set(refinedRows.map(pairKey));
  const base = summarize(baseRows.filter((row) => keys.has(pairKey(row))));
  const refined = summarize(refinedRows);
  return {
    base: base.cr,
    refined: refined.cr,
    delta: base.cr === null || refined.cr === null ? null : refined.cr - base.cr,
    base_ci: base.cr_ci,
    refined_ci: refined.cr_ci,
    n_refined: refined.n,
    n_base: base.n,
    paired: comparePaired(refinedRows, baseRows),
  };
}

/** Table 4 for one model and judge: one row per refinement method found in the rows. */
export function refinementRows(rows: readonly ResultRow[]): RefinementRow[] {
  const base = rows.filter((row) => !row.refinement);
  const methods = new Map<string, RowRefinement>();
  for (const row of rows) {
    if (row.refinement) methods.set(JSON.stringify([row.refinement.mode, row.refinement.taxonomy, row.refinement.critic]), row.refinement);
  }
  return [...methods.values()].map((method) => {
    const refined = rows.filter(
      (row) => row.refinement && row.refinement.mode === method.mode && row.refinement.taxonomy === method.taxonomy && row.refinement.critic === method.critic,
    );
    const cell = (regime: 'holistic' | 'step_wise') =>
      refinementCell(
        base.filter((row) => row.facets.split === REGIME_SPLITS[regime]),
        refined.filter((row) => row.facets.split === REGIME_SPLITS[regime]),
      );
    return { mode: method.mode, taxonomy: method.taxonomy, critic: method.critic, holistic: cell('holistic'), step_wise: cell('step_wise') };
  });
}
