/**
 * The report's tables as neutral views (title, columns, source rows), shared by the markdown, CSV
 * and HTML renderers so the three always agree. Columns carry a kind; `formatCell` rounds for
 * humans, CSV writes the raw values. Order: Table 1, 2, 12–18, 4, 5, error incidence, paired,
 * repeats. Table 1 lives in table1-views.ts, Tables 2 and 12–18 in appendix-views.ts.
 */
import type { Tables } from '../metrics/tables.js';
import { breakdownViews, table18View, table2View } from './appendix-views.js';
import { methodLabel } from './labels.js';
import type { ReportData } from './report-data.js';
import {
  cellColumns,
  column,
  E,
  failureColumns,
  labelColumns,
  self,
  tableView,
  text,
  type Column,
  type RowOf,
  type TableView,
} from './table-columns.js';
import { table1Views } from './table1-views.js';

export { formatCell, type Column, type ColumnKind, type TableView } from './table-columns.js';

type Table4Row = RowOf<'table4'>;
type OverCorrectionRow = RowOf<'table4_overcorrections'>;
type Table5Row = RowOf<'table5'>;
type SettingRow = Tables['error_incidence']['by_setting'][number];
type ModelErrorRow = Tables['error_incidence']['by_model'][number];
type ErrorRow = SettingRow | ModelErrorRow;
type PairedRow = RowOf<'paired'>;
type RepeatsRow = RowOf<'repeats'>;

function table4View(data: ReportData): TableView {
  const count = (key: string, label: string, get: (row: Table4Row) => unknown) =>
    column<Table4Row>('count', key, label, get);
  return tableView<Table4Row>({
    id: 'table4',
    title: 'Table 4 · Inference-time refinement',
    description:
      'Base (initial answer) and refined correctness on the same cases, per method and regime. (+) = critique with the E1–E6 taxonomy. Flips: cases that turned correct / incorrect; p = exact McNemar test on the flips. Failed = refinements that produced no answer (counted as not correct).',
    columns: [
      ...labelColumns(data),
      text('method', 'Method', methodLabel),
      text('critic', 'Critic'),
      text('regime', 'Regime'),
      { key: 'base_cr', label: 'Base %', kind: 'rate', get: (row) => row.base_cr, decimals: 2 },
      { key: 'base_ci', label: '95 % CI', kind: 'ci', get: (row) => row.base_ci, decimals: 1 },
      {
        key: 'refined_cr',
        label: 'Refined %',
        kind: 'rate',
        get: (row) => row.refined_cr,
        decimals: 2,
      },
      {
        key: 'refined_ci',
        label: '95 % CI',
        kind: 'ci',
        get: (row) => row.refined_ci,
        decimals: 1,
      },
      { key: 'delta', label: 'Δ', kind: 'delta', get: (row) => row.delta, decimals: 2 },
      count('to_correct', '→ correct', (row) => row.flips.to_correct),
      count('to_incorrect', '→ incorrect', (row) => row.flips.to_incorrect),
      { key: 'p_value', label: 'p', kind: 'p', get: (row) => row.p_value },
      count('n', 'n', (row) => row.n),
      count('failed', 'failed', (row) => row.failed),
    ],
    rows: data.tables.table4,
  });
}

/** Characters of a critique shown in the over-correction table (the case browser shows it whole). */
const CRITIQUE_PREVIEW = 400;
const preview = (texts: string[]) => {
  const joined = texts
    .map((value, index) => (texts.length > 1 ? `[${index + 1}] ${value}` : value))
    .join(' ');
  return joined.length > CRITIQUE_PREVIEW ? `${joined.slice(0, CRITIQUE_PREVIEW)}…` : joined;
};

function overCorrectionView(data: ReportData): TableView {
  return tableView<OverCorrectionRow>({
    id: 'table4_overcorrections',
    title: 'Over-corrections · correct before refinement, incorrect after',
    description: `The paper's failure mode of refinement (Appendix F.5): a correct answer changed for the worse. The critique that led there, first ${CRITIQUE_PREVIEW} characters (whole in the case browser).`,
    columns: [
      ...labelColumns(data),
      text('method', 'Method', methodLabel),
      text('split', 'Split'),
      text('id', 'Case'),
      {
        key: 'base_grade',
        label: 'Grade before',
        kind: 'grade',
        get: (row) => row.base_grade,
        decimals: 1,
      },
      {
        key: 'refined_grade',
        label: 'Grade after',
        kind: 'grade',
        get: (row) => row.refined_grade,
        decimals: 1,
      },
      text('critique', 'Critique', (row) => preview(row.critiques)),
    ],
    rows: data.tables.table4_overcorrections,
  });
}

function table5View(data: ReportData): TableView {
  const cost = (key: 'c_all' | 'c_pass' | 'c_com', label: string) =>
    column<Table5Row>('rate', key, label, (row) => row[key], 2);
  return tableView<Table5Row>({
    id: 'table5',
    title: 'Table 5 · Planning efficiency',
    description:
      'Average plan cost over all cases with a plan (C_all), solved cases (C_pass) and cases every model solved (C_com; baselines are not models and stay out of that set). An answer without a plan (refusal, parse failure, failed call) has no cost and is counted under "no plan". A costlier valid plan is correct; cost is measured here, not judged.',
    columns: [
      ...labelColumns(data),
      ...cellColumns<Table5Row, Table5Row>(self, '', { rate: 1, grade: 3 }, []),
      cost('c_all', 'C_all'),
      cost('c_pass', 'C_pass'),
      cost('c_com', 'C_com'),
      { key: 'common_cases', label: 'common cases', kind: 'count', get: (row) => row.common_cases },
      { key: 'no_plan', label: 'no plan', kind: 'count', get: (row) => row.no_plan },
      ...failureColumns<Table5Row, Table5Row>(self),
    ],
    rows: data.tables.table5,
  });
}

function errorViews(data: ReportData): TableView[] {
  const rates = E.map((key) =>
    column<ErrorRow>('rate', `${key}_rate`, `${key.toUpperCase()} %`, (row) => row.rates[key]),
  );
  const shares = E.map((key) =>
    column<ErrorRow>(
      'rate',
      `${key}_share`,
      `${key.toUpperCase()} share %`,
      (row) => row.shares[key],
    ),
  );
  const counts: Column<ErrorRow>[] = [
    column('count', 'n', 'n', (row) => row.n),
    column('count', 'flagged', 'with any error', (row) => row.flagged),
  ];
  return [
    tableView<SettingRow>({
      id: 'error_incidence_by_setting',
      title: 'Error incidence by setting',
      description:
        "Percent of cases flagged with each error (a case may carry several), and each error's share of all flags (Fig. 3).",
      columns: [...labelColumns(data), text('setting', 'Setting'), ...counts, ...rates, ...shares],
      rows: data.tables.error_incidence.by_setting,
    }),
    tableView<ModelErrorRow>({
      id: 'error_incidence_by_model',
      title: 'Error incidence by model (holistic + step-wise planning)',
      description: 'Fig. 58/59 data.',
      columns: [...labelColumns(data), ...counts, ...rates, ...shares],
      rows: data.tables.error_incidence.by_model,
    }),
  ];
}

function pairedView(data: ReportData): TableView {
  return tableView<PairedRow>({
    id: 'paired',
    title: 'Paired comparisons',
    description:
      'Two models under the same judge on the cases both answered: exact two-sided McNemar test on the discordant cases.',
    columns: [
      text('split', 'Split'),
      text('judge', 'Judge'),
      text('a', 'A'),
      text('b', 'B'),
      { key: 'shared', label: 'shared cases', kind: 'count', get: (row) => row.shared },
      { key: 'a_only', label: 'only A right', kind: 'count', get: (row) => row.a_only },
      { key: 'b_only', label: 'only B right', kind: 'count', get: (row) => row.b_only },
      { key: 'p_value', label: 'p', kind: 'p', get: (row) => row.p_value },
      text('verdict', 'Verdict'),
    ],
    rows: data.tables.paired,
  });
}

function repeatsView(data: ReportData): TableView {
  return tableView<RepeatsRow>({
    id: 'repeats',
    title: 'Repeats: pass@k and pass^k',
    description:
      'pass@k: at least one of k draws correct (unbiased estimator); pass^k: all k draws correct. Averaged over cases with at least k repeats.',
    columns: [
      ...labelColumns(data),
      text('split', 'Split'),
      { key: 'k', label: 'k', kind: 'count', get: (row) => row.k },
      { key: 'cases', label: 'cases', kind: 'count', get: (row) => row.cases },
      { key: 'pass_at_k', label: 'pass@k %', kind: 'rate', get: (row) => row.pass_at_k },
      { key: 'pass_hat_k', label: 'pass^k %', kind: 'rate', get: (row) => row.pass_hat_k },
    ],
    rows: data.tables.repeats,
  });
}

/** Every non-empty table of the report, in reading order. */
export function tableViews(data: ReportData): TableView[] {
  const views: TableView[] = [
    ...table1Views(data),
    table2View(data),
    ...breakdownViews(data),
    table18View(data),
    table4View(data),
    overCorrectionView(data),
    table5View(data),
    ...errorViews(data),
    pairedView(data),
    repeatsView(data),
  ];
  return views.filter((view) => view.rows.length > 0);
}
