/**
 * A table of rows as ToolSandbox keeps its databases (polars DataFrames): plain rows of scalar or
 * list cells, with the few whole-table operations its evaluation needs (row equality, joins on all
 * columns, null filling).
 */

/** One cell: polars' String, Int, Float, Boolean, List(String) and null. */
export type Cell = string | number | boolean | null | readonly string[];

/** One row, keyed by column name. */
export type Row = Record<string, Cell>;

/** The dtype of a column, as the execution context's schemas declare it. */
export type ColumnType = 'int' | 'float' | 'bool' | 'string' | 'enum' | 'list';

/** A table: its column order and its rows. */
export interface Frame {
  columns: string[];
  rows: Row[];
}

/** Cell equality; nulls equal each other, so a row with a null cell still matches its copy. */
export function cellsEqual(a: Cell, b: Cell): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => value === b[i]);
  }
  return a === b;
}

/** True when the two rows agree on every one of `columns`. */
export function rowsEqual(a: Row, b: Row, columns: readonly string[]): boolean {
  return columns.every((column) => cellsEqual(a[column] ?? null, b[column] ?? null));
}

/**
 * The number of rows an inner join of `left` and `right` on `columns` yields (many-to-many, as
 * polars counts it).
 */
export function innerJoinCount(left: Frame, right: Frame, columns: readonly string[]): number {
  let count = 0;
  for (const row of left.rows)
    for (const other of right.rows) if (rowsEqual(row, other, columns)) count++;
  return count;
}

/** The rows of `left` that match no row of `right` on `columns` (polars' anti join). */
export function antiJoin(left: Frame, right: Frame, columns: readonly string[]): Frame {
  return {
    columns: left.columns,
    rows: left.rows.filter((row) => !right.rows.some((other) => rowsEqual(row, other, columns))),
  };
}

/** A frame without one column. */
export function dropColumn(frame: Frame, column: string): Frame {
  return {
    columns: frame.columns.filter((name) => name !== column),
    rows: frame.rows.map((row) => {
      const copy = { ...row };
      delete copy[column];
      return copy;
    }),
  };
}

/**
 * polars' `fill_null(strategy="zero")`: numeric nulls become 0 and boolean nulls false; strings and
 * lists keep their nulls. `types` names each column's dtype; a column it lacks is inferred from
 * its non-null cells.
 */
export function fillNullZero(frame: Frame, types: Record<string, ColumnType> = {}): Frame {
  const zeroes: Record<string, Cell> = {};
  for (const column of frame.columns) {
    const type = types[column] ?? inferType(frame, column);
    if (type === 'int' || type === 'float') zeroes[column] = 0;
    else if (type === 'bool') zeroes[column] = false;
  }
  return {
    columns: frame.columns,
    rows: frame.rows.map((row) => {
      const copy = { ...row };
      for (const [column, zero] of Object.entries(zeroes))
        if (copy[column] === null || copy[column] === undefined) copy[column] = zero;
      return copy;
    }),
  };
}

function inferType(frame: Frame, column: string): ColumnType | undefined {
  for (const row of frame.rows) {
    const value = row[column];
    if (typeof value === 'number') return 'float';
    if (typeof value === 'boolean') return 'bool';
    if (typeof value === 'string') return 'string';
    if (Array.isArray(value)) return 'list';
  }
  return undefined;
}

/** Builds a frame from rows, its columns in the first row's key order (as `pl.DataFrame(rows)`). */
export function frameOf(rows: Row[], columns?: string[]): Frame {
  const names = columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return { columns: names, rows: rows.map((row) => fillMissing(row, names)) };
}

function fillMissing(row: Row, columns: readonly string[]): Row {
  const out: Row = {};
  for (const column of columns) out[column] = row[column] ?? null;
  return out;
}

/** polars' `DataFrame.equals`: same columns in the same order, same rows in the same order. */
export function framesEqual(a: Frame, b: Frame): boolean {
  if (a.columns.join('\u0000') !== b.columns.join('\u0000') || a.rows.length !== b.rows.length)
    return false;
  return a.rows.every((row, i) => rowsEqual(row, b.rows[i]!, a.columns));
}
