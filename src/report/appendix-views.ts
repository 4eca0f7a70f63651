/**
 * The appendix tables as views: Table 2 (impact of distractor tools), Tables 12–17 (breakdowns by
 * step range, modality, horizon, stage and distractor level) and Table 18 (base against
 * extraneous per regime).
 */
import type { ReportData } from './report-data.js';
import {
  APPENDIX,
  cellColumns,
  column,
  E,
  failureColumns,
  labelColumns,
  of,
  self,
  tableView,
  text,
  type Column,
  type RowOf,
  type TableView,
} from './table-columns.js';

type Regime = 'holistic' | 'step_wise';
type Table2Row = RowOf<'table2'>;
type Table18Row = RowOf<'table18'>;

function table2Half(regime: Regime, label: string): Column<Table2Row>[] {
  const at = (key: keyof Table2Row[Regime]) => (row: Table2Row) => row[regime][key];
  return [
    column('count', `${regime}_tc`, `${label} TC`, at('tc')),
    column('rate', `${regime}_cr_b`, `${label} CR_B %`, at('cr_b')),
    column('ci', `${regime}_cr_b_ci`, '95 % CI', at('cr_b_ci')),
    column('rate', `${regime}_cr_e`, `${label} CR_E %`, at('cr_e')),
    column('ci', `${regime}_cr_e_ci`, '95 % CI', at('cr_e_ci')),
    column('delta', `${regime}_delta`, 'Δ', at('delta')),
    column('count', `${regime}_n_pairs`, 'pairs', at('n_pairs')),
    column('count', `${regime}_n_b`, 'n_B', at('n_b')),
    column('count', `${regime}_n_e`, 'n_E', at('n_e')),
    column('count', `${regime}_n_e_unmatched`, 'unmatched E', at('n_e_unmatched')),
    column('rate', `${regime}_cr_e_pooled`, 'CR_E pooled %', at('cr_e_pooled')),
  ];
}

/** Table 2: base against distractor variants, matched pairs, per regime. */
export function table2View(data: ReportData): TableView {
  return tableView({
    id: 'table2',
    title: 'Table 2 · Impact of extraneous tools',
    description:
      'Matched pairs: CR_B and CR_E over the same base cases only (pairs = base cases with rows on both sides; CR_E pooled over their distractor levels), Δ = CR_E − CR_B; unmatched E = variants whose base case has no row, left out of the pair figures; CR_E pooled = every variant. TC = total uses of distractor tools over every variant.',
    columns: [
      ...labelColumns<Table2Row>(data),
      ...table2Half('holistic', 'Holistic'),
      ...table2Half('step_wise', 'Step-wise'),
    ],
    rows: data.tables.table2,
  });
}

type BreakdownId = 'table12' | 'table13' | 'table14' | 'table15' | 'table16' | 'table17';
type BreakdownRow = RowOf<BreakdownId>;

/** One of Tables 12–17: facet columns, then the cell (error counts instead of rates for Table 12). */
function breakdownView(
  data: ReportData,
  id: BreakdownId,
  title: string,
  description: string,
  facet: Column<BreakdownRow>[],
  errorCounts = false,
): TableView {
  const errors = errorCounts
    ? E.map((key) =>
        column<BreakdownRow>(
          'count',
          `${key}_n`,
          `${key.toUpperCase()} (N)`,
          of<BreakdownRow, BreakdownRow>(self, `${key}_n`),
        ),
      )
    : [];
  const cells = cellColumns<BreakdownRow, BreakdownRow>(self, '', APPENDIX, errorCounts ? [] : E);
  const rows: readonly BreakdownRow[] = data.tables[id];
  return tableView({
    id,
    title,
    description,
    columns: [
      ...labelColumns<BreakdownRow>(data),
      ...facet,
      ...cells,
      ...errors,
      ...failureColumns<BreakdownRow, BreakdownRow>(self),
    ],
    rows,
  });
}

/** Tables 12–17, in order. */
export function breakdownViews(data: ReportData): TableView[] {
  const extUse = column<BreakdownRow>(
    'count',
    'ext_use',
    'ExtUse',
    of<BreakdownRow, BreakdownRow>(self, 'ext_use'),
  );
  const levelNote = 'ExtUse = total uses of distractor tools at the level.';
  return [
    breakdownView(
      data,
      'table12',
      'Table 12 · Holistic planning by reference step range',
      'Error columns are counts of cases, as the paper prints them.',
      [text('steps_range', 'Steps')],
      true,
    ),
    breakdownView(data, 'table13', 'Table 13 · Holistic planning by input modality', '', [
      text('modality', 'Modality'),
    ]),
    breakdownView(data, 'table14', 'Table 14 · Step-wise planning by prediction horizon', '', [
      text('horizon', 'Horizon'),
    ]),
    breakdownView(data, 'table15', 'Table 15 · Step-wise planning by trajectory stage', '', [
      text('stage', 'Stage'),
    ]),
    breakdownView(
      data,
      'table16',
      'Table 16 · Step-wise tool-extraneous by distractor level',
      levelNote,
      [text('level', 'Level'), extUse],
    ),
    breakdownView(
      data,
      'table17',
      'Table 17 · Holistic tool-extraneous by distractor level',
      levelNote,
      [text('level', 'Level'), extUse],
    ),
  ];
}

function table18Half(regime: Regime, label: string): Column<Table18Row>[] {
  const at = (key: keyof Table18Row[Regime]) => (row: Table18Row) => row[regime][key];
  return [
    column('rate', `${regime}_cr_orig`, `${label} CR Orig %`, at('cr_orig'), 2),
    column('ci', `${regime}_cr_orig_ci`, '95 % CI', at('cr_orig_ci'), 1),
    column('rate', `${regime}_cr_red`, 'CR Red %', at('cr_red'), 2),
    column('ci', `${regime}_cr_red_ci`, '95 % CI', at('cr_red_ci'), 1),
    column('delta', `${regime}_cr_delta`, 'Δ', at('cr_delta'), 2),
    column('grade', `${regime}_grade_orig`, 'Grade Orig', at('grade_orig')),
    column('grade', `${regime}_grade_red`, 'Grade Red', at('grade_red')),
    column('grade-delta', `${regime}_grade_delta`, 'Δ', at('grade_delta')),
    column('count', `${regime}_n_pairs`, 'pairs', at('n_pairs')),
    column('count', `${regime}_n_orig`, 'n Orig', at('n_orig')),
    column('count', `${regime}_n_red`, 'n Red', at('n_red')),
    column('count', `${regime}_n_red_unmatched`, 'unmatched Red', at('n_red_unmatched')),
    column('rate', `${regime}_cr_red_pooled`, 'CR Red pooled %', at('cr_red_pooled'), 2),
  ];
}

/** Table 18: Orig against Red, matched pairs, per regime. */
export function table18View(data: ReportData): TableView {
  return tableView({
    id: 'table18',
    title: 'Table 18 · Base against extraneous, per regime',
    description:
      'Matched pairs: Orig and Red over the same base cases only (Red pooled over their distractor levels), Δ = Red − Orig; unmatched Red = variants without a base row; CR Red pooled = every variant.',
    columns: [
      ...labelColumns<Table18Row>(data),
      ...table18Half('holistic', 'Holistic'),
      ...table18Half('step_wise', 'Step-wise'),
    ],
    rows: data.tables.table18,
  });
}
