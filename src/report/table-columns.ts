/**
 * The neutral table view every renderer draws (Markdown, CSV, HTML), and the column builders the
 * views share. A view is built from typed rows and columns by `tableView`, which erases the row
 * type once: renderers only ever hand a column the rows of its own view.
 */
import type { Interval } from '../metrics/intervals.js';
import type { Tables } from '../metrics/tables.js';
import { groupKey } from './comparability.js';
import { judgeLabel, modelLabel } from './labels.js';
import { count, fixed, interval, pValue, signed, usd } from './numbers.js';
import type { ReportData } from './report-data.js';

/** How a column's values are shown: rates in percent, grades 0–1, intervals, signed deltas, counts, p-values, text. */
export type ColumnKind =
  | 'text'
  | 'model'
  | 'judge'
  | 'rate'
  | 'grade'
  | 'ci'
  | 'delta'
  | 'grade-delta'
  | 'count'
  | 'p'
  | 'usd'
  | 'ms'
  | 'rate-ci';

/** One column of a table view over rows of type `Row`. */
export interface Column<Row = unknown> {
  key: string;
  label: string;
  kind: ColumnKind;
  get: (row: Row) => unknown;
  /** Decimal places for rates and grades (defaults: rate 1, grade 2). */
  decimals?: number;
}

/** A table ready to render: its columns read its own rows. */
export interface TableView {
  id: string;
  title: string;
  description: string;
  columns: Column[];
  rows: readonly unknown[];
}

/** A view from typed rows and columns (the one place the row type is erased). */
export function tableView<Row>(view: {
  id: string;
  title: string;
  description: string;
  columns: Column<Row>[];
  rows: readonly Row[];
}): TableView {
  // Safe: a view's columns are only ever applied to that view's rows.
  return { ...view, columns: view.columns as Column[] };
}

/** The element type of table `K` of `Tables`. */
export type RowOf<K extends keyof Tables> = Tables[K] extends readonly (infer R)[] ? R : never;

/** Human text of one cell. */
export function formatCell(column: Column<never>, value: unknown): string {
  if (column.kind === 'text') return value === null || value === undefined ? '–' : String(value);
  if (column.kind === 'model') return modelLabel(String(value));
  if (column.kind === 'judge') return judgeLabel(String(value));
  if (column.kind === 'ci') return interval(value as Interval | null, column.decimals ?? 1);
  if (column.kind === 'count') return count(value as number | null);
  if (column.kind === 'p') return pValue(value as number | null);
  if (column.kind === 'usd') return usd(value as number | null);
  if (column.kind === 'rate-ci') {
    const cell = value as { value: number | null; ci: Interval | null } | null;
    return cell?.value === null || cell?.value === undefined
      ? '–'
      : `${fixed(cell.value, column.decimals ?? 1)} [${interval(cell.ci, column.decimals ?? 1)}]`;
  }
  if (column.kind === 'ms') return count(value as number | null);
  const number = typeof value === 'number' ? value : null;
  if (column.kind === 'delta') return signed(number, column.decimals ?? 1);
  if (column.kind === 'grade-delta') return signed(number, column.decimals ?? 2);
  return fixed(number, column.decimals ?? (column.kind === 'grade' ? 2 : 1));
}

/** The E1–E6 keys of a cell. */
export const E = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
/** Decimals of Table 1 and of the appendix tables. */
export const T1 = { rate: 1, grade: 2 };
export const APPENDIX = { rate: 2, grade: 3 };

/** A text column (by default the row's own field `key`). */
export function text<Row>(key: string, label: string, get?: (row: Row) => unknown): Column<Row> {
  return { key, label, kind: 'text', get: get ?? ((row) => (row as Record<string, unknown>)[key]) };
}

/** A column of one kind reading `get`. */
export function column<Row>(
  kind: ColumnKind,
  key: string,
  label: string,
  get: (row: Row) => unknown,
  decimals?: number,
): Column<Row> {
  return decimals === undefined ? { key, label, kind, get } : { key, label, kind, get, decimals };
}

/** The field `key` of the cell `pick(row)`, null when the cell or the field is missing. */
export function of<Row, Cell extends object>(
  pick: (row: Row) => Cell | null | undefined,
  key: string,
): (row: Row) => unknown {
  return (row) => (pick(row) as Record<string, unknown> | null | undefined)?.[key] ?? null;
}

/** CR, its interval, grade and E1–E6 of the cell `pick(row)`; `e2` may be replaced (tool-extraneous). */
export function cellColumns<Row, Cell extends object>(
  pick: (row: Row) => Cell | null | undefined,
  prefix: string,
  decimals: { rate: number; grade: number },
  errorKeys: readonly string[] = E,
): Column<Row>[] {
  return [
    column('rate', `${prefix}cr`, 'CR %', of(pick, 'cr'), decimals.rate),
    column('ci', `${prefix}cr_ci`, '95 % CI', of(pick, 'cr_ci'), decimals.rate),
    column('grade', `${prefix}grade`, 'Grade', of(pick, 'grade'), decimals.grade),
    ...errorKeys.map((key) =>
      column(
        'rate',
        `${prefix}${key}`,
        `${key.toUpperCase().replace('_', '-')} %`,
        of(pick, key),
        decimals.rate,
      ),
    ),
  ];
}

/** n and the failure counts behind a cell. */
export function failureColumns<Row, Cell extends object>(
  pick: (row: Row) => Cell | null | undefined,
  prefix = '',
): Column<Row>[] {
  return [
    column('count', `${prefix}n`, 'n', of(pick, 'n')),
    column('count', `${prefix}errors`, 'planner errors', of(pick, 'errors')),
    column('count', `${prefix}parse_errors`, 'parse errors', of(pick, 'parse_errors')),
    column('count', `${prefix}judge_errors`, 'judge errors', of(pick, 'judge_errors')),
  ];
}

/** A row as its own cell. */
export const self = <Row extends object>(row: Row): Row => row;

/** What every (model, judge) row carries. */
export interface GroupRow {
  model: string;
  judge: string;
}

/** Model, judge and, when the report holds sets that are not comparable, the row's set tag. */
export function labelColumns<Row extends GroupRow>(data: ReportData): Column<Row>[] {
  const columns: Column<Row>[] = [
    column('model', 'model', 'Model', (row) => row.model),
    column('judge', 'judge', 'Judge', (row) => row.judge),
  ];
  if (!data.comparability.comparable)
    columns.push(
      text('tag', 'Set', (row) => data.comparability.tags[groupKey(row.model, row.judge)] ?? '–'),
    );
  return columns;
}
