/**
 * Table 4 beside the paper's (`--compare-paper`): for each of our refinement methods of a model the
 * paper reports (one round, as the paper ran it), base, refined and Δ of the holistic and step-wise
 * regimes against the printed row of the same model and method, at the paper's two decimals.
 */
import type { Tables } from '../metrics/tables.js';
import { roundTo } from './numbers.js';

type Table4Row = Tables['table4'][number];

/** One compared Table 4 cell (the shape of `PaperCell`, table 'Table 4'). */
export interface Table4Cell {
  table: 'Table 4';
  column: string;
  ours: number | null;
  oursRounded: number | null;
  paper: number | null;
  decimals: number;
  matches: boolean;
  note: string | null;
}

const COLUMNS = [
  ['holistic', 'holistic_base', 'base_cr'],
  ['holistic', 'holistic_refined', 'refined_cr'],
  ['holistic', 'holistic_delta', 'delta'],
  ['step_wise', 'stepwise_base', 'base_cr'],
  ['step_wise', 'stepwise_refined', 'refined_cr'],
  ['step_wise', 'stepwise_delta', 'delta'],
] as const;

/** The compared cells of one (model, judge): `paperRows` are the paper's Table 4 rows of the matched model. */
export function table4Cells(ours: readonly Table4Row[], paperRows: readonly Record<string, unknown>[], decimals: Record<string, number | number[]>): Table4Cell[] {
  const cells: Table4Cell[] = [];
  for (const printed of paperRows) {
    const method = String(printed.method ?? '');
    for (const [regime, column, key] of COLUMNS) {
      const row = ours.find((candidate) => candidate.regime === regime && candidate.mode === printed.refiner && candidate.taxonomy === printed.taxonomy_guided && candidate.rounds === 1);
      const value = row ? row[key] : null;
      const places = typeof decimals[column] === 'number' ? (decimals[column] as number) : 2;
      const paper = typeof printed[column] === 'number' ? (printed[column] as number) : null;
      const oursRounded = value === null ? null : roundTo(value, places);
      cells.push({ table: 'Table 4', column: `${method} ${column}`, ours: value, oursRounded, paper, decimals: places, matches: oursRounded !== null && paper !== null && Math.abs(oursRounded - paper) < 10 ** -(places + 3), note: null });
    }
  }
  return cells;
}
