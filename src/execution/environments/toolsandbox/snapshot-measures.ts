/**
 * ToolSandbox's snapshot similarity measures: how well a database snapshot realises a milestone's
 * expected state, in [0, 1]. `snapshot` compares whole tables row by row; `addition`, `removal`
 * and `update` compare only the rows that changed against a reference snapshot; `guardrail`
 * requires a database to be unchanged; `tool_trace_dependant` first fills the expected message
 * with values extracted from a reference message's tool trace.
 */
import { minimumAssignment } from './assignment.js';
import type { ColumnMeasure } from './column-measures.js';
import {
  antiJoin,
  dropColumn,
  fillNullZero,
  framesEqual,
  innerJoinCount,
  type ColumnType,
  type Frame,
} from './frame.js';
import { INDEX_COLUMN } from './schemas.js';

/** What a snapshot measure compares. */
export interface MeasureInput {
  snapshot: Frame;
  target: Frame | null;
  columns: Record<string, ColumnMeasure>;
  reference: Frame | null;
  /** The database's column dtypes (for null filling); inferred from the cells when absent. */
  types?: Record<string, ColumnType>;
}

const f32 = Math.fround;

/** -log of a Float32 similarity, as polars computes it on a Float32 column. */
function cost(similarity: number | null): number | null {
  return similarity === null ? null : f32(-Math.log(f32(similarity)));
}

/**
 * Whole-table similarity: 0 unless both have as many rows and the snapshot has every expected
 * column; else the best one-to-one row matching's geometric mean of row similarities (each the
 * geometric mean of its column similarities, null ones skipped).
 */
export function snapshotSimilarity(input: MeasureInput): number {
  const { snapshot, columns } = input;
  const target = input.target!;
  if (snapshot.rows.length !== target.rows.length) return 0;
  if (target.columns.some((column) => !snapshot.columns.includes(column))) return 0;
  if (target.rows.length === 0)
    throw new Error('snapshot similarity of an empty expected table (numpy cannot stack nothing)');
  const matrix: number[][] = target.rows.map((row) => {
    const perColumn = target.columns.map((column) => {
      const measure = columns[column];
      if (!measure) throw new Error(`no column similarity measure for ${column}`);
      return measure(snapshot.rows, column, row[column] ?? null).map(cost);
    });
    return snapshot.rows.map((_, j) => {
      const values = perColumn.map((scores) => scores[j]).filter((v): v is number => v !== null);
      // an all-null row makes a NaN cost, which scipy refuses
      return values.length === 0 ? NaN : f32(values.reduce((a, b) => a + b, 0) / values.length);
    });
  });
  if (matrix.some((row) => row.some(Number.isNaN))) return 0;
  const best = minimumAssignment(matrix);
  if (best === null) return 0;
  return f32(Math.exp(-f32(best.total / matrix.length)));
}

function prepared(input: MeasureInput): { snapshot: Frame; reference: Frame; target: Frame } {
  const types = input.types;
  return {
    snapshot: fillNullZero(dropColumn(input.snapshot, INDEX_COLUMN), types),
    reference: fillNullZero(dropColumn(input.reference!, INDEX_COLUMN), types),
    target: fillNullZero(input.target!, types),
  };
}

/** The snapshot should be the reference plus the expected rows: 0 unless it keeps every reference row. */
export function additionSimilarity(input: MeasureInput): number {
  const { snapshot, reference, target } = prepared(input);
  if (reference.rows.length !== innerJoinCount(snapshot, reference, snapshot.columns)) return 0;
  return snapshotSimilarity({
    ...input,
    snapshot: antiJoin(snapshot, reference, snapshot.columns),
    target,
  });
}

/** The snapshot should be the reference less the expected rows (addition with the two swapped). */
export function removalSimilarity(input: MeasureInput): number {
  return additionSimilarity({ ...input, snapshot: input.reference!, reference: input.snapshot });
}

/** The snapshot should be the reference with the expected rows changed: 0 unless the row counts agree. */
export function updateSimilarity(input: MeasureInput): number {
  const { snapshot, reference, target } = prepared(input);
  if (reference.rows.length !== snapshot.rows.length) return 0;
  return snapshotSimilarity({
    ...input,
    snapshot: antiJoin(snapshot, reference, snapshot.columns),
    target,
  });
}

/** 1 when the snapshot equals the reference snapshot exactly, else 0. */
export function guardrailSimilarity(input: MeasureInput): number {
  return framesEqual(input.snapshot, input.reference!) ? 1 : 0;
}
