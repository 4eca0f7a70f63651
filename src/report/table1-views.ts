/**
 * Table 1 as five views, one per block (holistic, step-wise, tool-extraneous, tool-broken,
 * unsolvable), each with n and the failure counts of its block and only the rows that fill it.
 */
import type { Table1Row } from '../metrics/table1.js';
import type { ReportData } from './report-data.js';
import {
  cellColumns,
  column,
  failureColumns,
  labelColumns,
  of,
  T1,
  tableView,
  type Column,
  type TableView,
} from './table-columns.js';

type Block = Table1Row[keyof Omit<Table1Row, 'model' | 'judge'>];
type Pick = (row: Table1Row) => Block;

const BEHAVIOURS = [
  ['replace', 'Replace'],
  ['alter', 'Alter'],
  ['retry', 'Retry'],
  ['refuse', 'Refuse'],
  ['other', 'Other'],
] as const;
const TYPES = [
  ['conf', 'Conf'],
  ['info', 'Info'],
  ['tool', 'Tool'],
  ['vis', 'Vis'],
] as const;

const broken = (row: Table1Row) => row.tool_broken;
const unsolvable = (row: Table1Row) => row.unsolvable;

function brokenColumns(): Column<Table1Row>[] {
  return [
    ...BEHAVIOURS.map(([key, label]) =>
      column<Table1Row>('rate', `tool_broken_${key}`, `${label} %`, of(broken, key)),
    ),
    column('count', 'tool_broken_unclassified', 'unclassified', of(broken, 'unclassified')),
  ];
}

function unsolvableColumns(): Column<Table1Row>[] {
  return [
    ...TYPES.flatMap(([key, label]) => [
      column<Table1Row>('rate', `unsolvable_${key}`, `${label} %`, of(unsolvable, key), 0),
      column<Table1Row>(
        'ci',
        `unsolvable_${key}_ci`,
        '95 % CI',
        (row) => row.unsolvable.ci_by_type?.[key] ?? null,
        0,
      ),
    ]),
    column('rate', 'unsolvable_refused', 'refused %', of(unsolvable, 'refused')),
  ];
}

const EXTRANEOUS_ERRORS = ['e1', 'e2_h', 'e2_s', 'e3', 'e4', 'e5', 'e6'];

/** With repeats the holistic interval is clustered by case: its design effect goes beside it. */
function designEffectColumns(rows: readonly Table1Row[]): Column<Table1Row>[] {
  if (!rows.some((row) => row.holistic.design_effect !== undefined)) return [];
  const get = (row: Table1Row) => row.holistic.design_effect ?? null;
  return [column<Table1Row>('grade', 'holistic_design_effect', 'deff', get, 2)];
}

/** Table 1's five blocks, each only when some row has cases for it. */
export function table1Views(data: ReportData): TableView[] {
  const rows = data.tables.table1;
  const labels = labelColumns<Table1Row>(data);
  const block = (
    id: string,
    title: string,
    description: string,
    pick: Pick,
    columns: Column<Table1Row>[],
  ) =>
    tableView({
      id,
      title,
      description,
      columns: [...labels, ...columns, ...failureColumns(pick)],
      rows: rows.filter((row) => (pick(row)?.n ?? 0) > 0),
    });
  const holistic = (row: Table1Row) => row.holistic;
  const clustered = designEffectColumns(rows);
  const stepWise = (row: Table1Row) => row.step_wise;
  const extraneous = (row: Table1Row) => row.tool_extraneous;
  return [
    block(
      'table1_holistic',
      'Table 1 · Holistic planning',
      'Every holistic_planning case.',
      holistic,
      [...cellColumns(holistic, 'holistic_', T1), ...clustered],
    ),
    block(
      'table1_step_wise',
      'Table 1 · Step-wise planning',
      'Unweighted mean over prediction horizons 1/2/3 (Table 14).',
      stepWise,
      cellColumns(stepWise, 'step_wise_', T1),
    ),
    block(
      'table1_tool_extraneous',
      'Table 1 · Tool-extraneous',
      'Mean of the holistic and step-wise halves, each pooled over distractor levels. E2-H = holistic task incompleteness, E2-S = step-wise premature conclusion (the paper prints these two under swapped headers).',
      extraneous,
      cellColumns(extraneous, 'tool_extraneous_', T1, EXTRANEOUS_ERRORS),
    ),
    block(
      'table1_tool_broken',
      'Table 1 · Tool-broken behaviour',
      'Percent of all tool-broken cases per behaviour (sums to 100); cases without a behaviour count as Other.',
      broken,
      brokenColumns(),
    ),
    block(
      'table1_unsolvable',
      'Table 1 · Unsolvable',
      'Pass (correct refusal) rate per unsolvable type; failures count as not passed.',
      unsolvable,
      unsolvableColumns(),
    ),
  ].filter((view) => view.rows.length > 0);
}
