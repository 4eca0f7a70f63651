/**
 * What the contact, messaging and reminder tools share (ToolSandbox's `common/utils.py` filters
 * and `common/validators.py` checks): the search filters over a database, rows as the agent sees
 * them (`to_dicts()`, floats as floats), the range checks, phone-number parsing, and polars'
 * errors as the agent's traceback line names them.
 */
import { DatabaseError, type ExecutionContext } from './execution-context.js';
import type { Row } from './frame.js';
import { extractIndices } from './fuzzy.js';
import { pyStrRepr } from './python-repr.js';
import { PyFloat, pyEquals, pyFloatRepr } from './python-values.js';
import { columnsOf, INDEX_COLUMN, SCHEMAS, type Namespace } from './schemas.js';
import { ToolException, validateAnnotation, type Annotation, type Parameter } from './toolbox.js';

export const NO_DATA = 'polars.exceptions.NoDataError';
export const DUPLICATE = 'polars.exceptions.DuplicateError';

/** A database's current rows as `to_dicts()` gives them: schema order, float columns as floats. */
export function toDicts(namespace: Namespace, rows: Row[]): Record<string, unknown>[] {
  const schema = SCHEMAS[namespace];
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const column of columnsOf(namespace)) {
      if (column === INDEX_COLUMN) continue;
      const value = row[column] ?? null;
      out[column] =
        schema[column] === 'float' && typeof value === 'number' ? new PyFloat(value) : value;
    }
    return out;
  });
}

/** A filter of `filter_dataframe`: column, value (undefined: NOT_GIVEN) and how it matches. */
export type Criterion = [column: string, value: unknown, match: Match];
export type Match = 'exact' | 'gte' | 'lte' | { fuzzy: number };

function compare(cell: unknown, value: unknown, match: 'gte' | 'lte'): boolean {
  if (cell === null || typeof cell !== 'number' || typeof value !== 'number') return false;
  return match === 'gte' ? cell >= value : cell <= value;
}

/** `filter_dataframe`: every given criterion applied in turn; none given is a ValueError. */
export function filterRows(rows: Row[], criteria: Criterion[]): Row[] {
  if (criteria.every(([, value]) => value === undefined)) {
    const names = criteria.map(([column]) => pyStrRepr(column)).join(', ');
    throw new ToolException(
      'ValueError',
      'No search criteria are given. At least one search criteria should be provided among ' +
        `(${names})`,
    );
  }
  let out = rows;
  for (const [column, value, match] of criteria) {
    if (value === undefined) continue;
    if (match === 'exact')
      // polars: `col == None` keeps no row
      out = value === null ? [] : out.filter((row) => pyEquals(row[column] ?? null, value));
    else if (match === 'gte' || match === 'lte')
      out = out.filter((row) => compare(row[column] ?? null, value, match));
    else if (value === null)
      out = []; // rapidfuzz matches nothing for a None query
    else {
      if (typeof value !== 'string')
        throw new ToolException('TypeError', 'sentence must be a String');
      const choices = out.map((row) =>
        typeof row[column] === 'string' ? (row[column] as string) : null,
      );
      const picked = extractIndices(value, choices, match.fuzzy);
      out = picked.map((i) => out[i]!);
    }
  }
  return out;
}

/** validate_range's messages (bounds printed as Python floats). */
export function validateRange(value: unknown, name: string, min: number, max: number): void {
  if (typeof value !== 'number' && typeof value !== 'boolean') return;
  const number = Number(value);
  if (number < min)
    throw new ToolException(
      'ValueError',
      `Parameter '${name}' is smaller than its valid range minimum of ${pyFloatRepr(min)}.`,
    );
  if (number > max)
    throw new ToolException(
      'ValueError',
      `Parameter '${name}' is larger than its valid range maximum of ${pyFloatRepr(max)}.`,
    );
}

/** validate_timestamp: 1980-01-01 .. 2050-01-01 (ToolSandbox's bounds), after the type check. */
export function validateTimestamp(value: unknown, name: string, annotation: Annotation): void {
  validateAnnotation(value, name, annotation);
  validateRange(value, name, 315529200.0, 2524604400.0);
}

/** validate_latitude / validate_longitude. */
export function validateDegrees(
  value: unknown,
  name: string,
  annotation: Annotation,
  limit: 90 | 180,
): void {
  validateAnnotation(value, name, annotation);
  validateRange(value, name, -limit, limit);
}

/** A typed parameter: required, or with a default (NOT_GIVEN when `fallback` is undefined). */
export function param(
  name: string,
  annotation: Annotation,
  fallback?: { default: unknown } | 'not_given',
): Parameter {
  if (fallback === undefined) return { name, required: true, annotation };
  if (fallback === 'not_given')
    return { name, required: false, annotation: { ...annotation, notGiven: true } };
  return { name, required: false, default: fallback.default, annotation };
}

/**
 * polars' repr of remove_from_database's predicate, `(col == value) & (col(index) == n)`, cut at
 * 30 characters (polars 1.x text; the memory address polars prints is fixed here).
 */
export function predicateText(column: string, value: string): string {
  let text = `[([(col("${column}")) == ("${value}")]) & ([(col("${INDEX_COLUMN}")) == (dyn int)])]`;
  if ([...text].length > 30) text = [...text].slice(0, 30).join('') + '…';
  return `<Expr [${pyStrRepr(text)}] at 0x7F0000000000>`;
}

/** `remove_from_database(namespace, col(column) == value)`, with polars' NoDataError text. */
export function removeWhere(
  context: ExecutionContext,
  namespace: Namespace,
  column: string,
  value: string,
): void {
  try {
    context.removeFromDatabase(namespace, (row) => row[column] === value);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    throw new ToolException(
      NO_DATA,
      `No db entry matching predicate=${predicateText(column, value)} found`,
    );
  }
}

/** The one row whose `column` equals `value` (modify_contact / modify_reminder's lookup). */
export function uniqueRow(
  context: ExecutionContext,
  namespace: Namespace,
  column: string,
  value: string,
): Row {
  const rows = context.getDatabase(namespace).filter((row) => row[column] === value);
  const shown = `${column}=${pyStrRepr(value)}`;
  if (rows.length === 0) throw new ToolException(NO_DATA, `No db entry matching ${shown} found`);
  if (rows.length > 1) throw new ToolException(DUPLICATE, `More than 1 entry with ${shown} found`);
  return rows[0]!;
}
