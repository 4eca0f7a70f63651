/**
 * The report's tables as neutral views (title, columns, source rows), shared by the markdown, CSV
 * and HTML renderers so the three always agree. Columns carry a kind; `formatCell` rounds for
 * humans, CSV writes the raw values. Order: Table 1, 2, 12–18, 4, 5, error incidence, paired, repeats.
 */
import type { Interval } from '../metrics/intervals.js';
import { judgeLabel, methodLabel, modelLabel } from './labels.js';
import type { Tables } from '../metrics/tables.js';
import { count, fixed, interval, pValue, signed, usd } from './numbers.js';
import { groupKey } from './comparability.js';
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

/** One column of a table view. */
export interface Column {
  key: string;
  label: string;
  kind: ColumnKind;
  get: (row: any) => unknown;
  /** Decimal places for rates and grades (defaults: rate 1, grade 2). */
  decimals?: number;
}

/** A table ready to render. */
export interface TableView {
  id: string;
  title: string;
  description: string;
  columns: Column[];
  rows: unknown[];
}

/** Human text of one cell. */
export function formatCell(column: Column, value: unknown): string {
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

const E = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
type Pick = (row: any) => any;

const text = (key: string, label: string, get: Pick = (row) => row[key]): Column => ({
  key,
  label,
  kind: 'text',
  get,
});
const of = (pick: Pick, key: string) => (row: any) => pick(row)?.[key] ?? null;

/** CR, its interval, grade and E1–E6 of the cell `pick(row)`; `e2` may be replaced (tool-extraneous). */
function cellColumns(
  pick: Pick,
  prefix: string,
  decimals: { rate: number; grade: number },
  errorKeys: readonly string[] = E,
): Column[] {
  return [
    {
      key: `${prefix}cr`,
      label: 'CR %',
      kind: 'rate',
      get: of(pick, 'cr'),
      decimals: decimals.rate,
    },
    {
      key: `${prefix}cr_ci`,
      label: '95 % CI',
      kind: 'ci',
      get: of(pick, 'cr_ci'),
      decimals: decimals.rate,
    },
    {
      key: `${prefix}grade`,
      label: 'Grade',
      kind: 'grade',
      get: of(pick, 'grade'),
      decimals: decimals.grade,
    },
    ...errorKeys.map((key): Column => ({
      key: `${prefix}${key}`,
      label: `${key.toUpperCase().replace('_', '-')} %`,
      kind: 'rate',
      get: of(pick, key),
      decimals: decimals.rate,
    })),
  ];
}

/** n and the failure counts behind a cell. */
function failureColumns(pick: Pick, prefix = ''): Column[] {
  return [
    { key: `${prefix}n`, label: 'n', kind: 'count', get: of(pick, 'n') },
    { key: `${prefix}errors`, label: 'planner errors', kind: 'count', get: of(pick, 'errors') },
    {
      key: `${prefix}parse_errors`,
      label: 'parse errors',
      kind: 'count',
      get: of(pick, 'parse_errors'),
    },
    {
      key: `${prefix}judge_errors`,
      label: 'judge errors',
      kind: 'count',
      get: of(pick, 'judge_errors'),
    },
  ];
}

const self: Pick = (row) => row;
const T1 = { rate: 1, grade: 2 };
const APPENDIX = { rate: 2, grade: 3 };

function labelColumns(data: ReportData): Column[] {
  const columns: Column[] = [
    { key: 'model', label: 'Model', kind: 'model', get: (row) => row.model },
    { key: 'judge', label: 'Judge', kind: 'judge', get: (row) => row.judge },
  ];
  if (!data.comparability.comparable)
    columns.push(
      text(
        'tag',
        'Set',
        (row) => data.comparability.tags[groupKey(row.model, row.judge)] ?? row.tag ?? '–',
      ),
    );
  return columns;
}

const filled = (rows: unknown[], pick: Pick) => rows.filter((row) => (pick(row)?.n ?? 0) > 0);

function table1Views(data: ReportData): TableView[] {
  const rows = data.tables.table1;
  const labels = labelColumns(data);
  const block = (
    id: string,
    title: string,
    description: string,
    pick: Pick,
    columns: Column[],
  ): TableView => ({
    id,
    title,
    description,
    columns: [...labels, ...columns, ...failureColumns(pick)],
    rows: filled(rows, pick),
  });
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
  const broken: Pick = (row) => row.tool_broken;
  const unsolvable: Pick = (row) => row.unsolvable;
  return [
    block(
      'table1_holistic',
      'Table 1 · Holistic planning',
      'Every holistic_planning case.',
      (row) => row.holistic,
      cellColumns((row) => row.holistic, 'holistic_', T1),
    ),
    block(
      'table1_step_wise',
      'Table 1 · Step-wise planning',
      'Unweighted mean over prediction horizons 1/2/3 (Table 14).',
      (row) => row.step_wise,
      cellColumns((row) => row.step_wise, 'step_wise_', T1),
    ),
    block(
      'table1_tool_extraneous',
      'Table 1 · Tool-extraneous',
      'Mean of the holistic and step-wise halves, each pooled over distractor levels. E2-H = holistic task incompleteness, E2-S = step-wise premature conclusion (the paper prints these two under swapped headers).',
      (row) => row.tool_extraneous,
      cellColumns((row) => row.tool_extraneous, 'tool_extraneous_', T1, [
        'e1',
        'e2_h',
        'e2_s',
        'e3',
        'e4',
        'e5',
        'e6',
      ]),
    ),
    block(
      'table1_tool_broken',
      'Table 1 · Tool-broken behaviour',
      'Percent of all tool-broken cases per behaviour (sums to 100); cases without a behaviour count as Other.',
      broken,
      [
        ...BEHAVIOURS.map(([key, label]): Column => ({
          key: `tool_broken_${key}`,
          label: `${label} %`,
          kind: 'rate',
          get: of(broken, key),
        })),
        {
          key: 'tool_broken_unclassified',
          label: 'unclassified',
          kind: 'count',
          get: of(broken, 'unclassified'),
        },
      ],
    ),
    block(
      'table1_unsolvable',
      'Table 1 · Unsolvable',
      'Pass (correct refusal) rate per unsolvable type; failures count as not passed.',
      unsolvable,
      [
        ...TYPES.flatMap(([key, label]): Column[] => [
          {
            key: `unsolvable_${key}`,
            label: `${label} %`,
            kind: 'rate',
            get: of(unsolvable, key),
            decimals: 0,
          },
          {
            key: `unsolvable_${key}_ci`,
            label: '95 % CI',
            kind: 'ci',
            get: (row) => row.unsolvable.ci_by_type?.[key] ?? null,
            decimals: 0,
          },
        ]),
        {
          key: 'unsolvable_refused',
          label: 'refused %',
          kind: 'rate',
          get: of(unsolvable, 'refused'),
        },
      ],
    ),
  ].filter((view) => view.rows.length > 0);
}

function table2View(data: ReportData): TableView {
  const half = (regime: 'holistic' | 'step_wise', label: string): Column[] => [
    { key: `${regime}_tc`, label: `${label} TC`, kind: 'count', get: (row) => row[regime].tc },
    {
      key: `${regime}_cr_b`,
      label: `${label} CR_B %`,
      kind: 'rate',
      get: (row) => row[regime].cr_b,
    },
    { key: `${regime}_cr_b_ci`, label: '95 % CI', kind: 'ci', get: (row) => row[regime].cr_b_ci },
    {
      key: `${regime}_cr_e`,
      label: `${label} CR_E %`,
      kind: 'rate',
      get: (row) => row[regime].cr_e,
    },
    { key: `${regime}_cr_e_ci`, label: '95 % CI', kind: 'ci', get: (row) => row[regime].cr_e_ci },
    { key: `${regime}_delta`, label: 'Δ', kind: 'delta', get: (row) => row[regime].delta },
    { key: `${regime}_n_pairs`, label: 'pairs', kind: 'count', get: (row) => row[regime].n_pairs },
    { key: `${regime}_n_b`, label: 'n_B', kind: 'count', get: (row) => row[regime].n_b },
    { key: `${regime}_n_e`, label: 'n_E', kind: 'count', get: (row) => row[regime].n_e },
    {
      key: `${regime}_n_e_unmatched`,
      label: 'unmatched E',
      kind: 'count',
      get: (row) => row[regime].n_e_unmatched,
    },
    {
      key: `${regime}_cr_e_pooled`,
      label: 'CR_E pooled %',
      kind: 'rate',
      get: (row) => row[regime].cr_e_pooled,
    },
  ];
  return {
    id: 'table2',
    title: 'Table 2 · Impact of extraneous tools',
    description:
      'Matched pairs: CR_B and CR_E over the same base cases only (pairs = base cases with rows on both sides; CR_E pooled over their distractor levels), Δ = CR_E − CR_B; unmatched E = variants whose base case has no row, left out of the pair figures; CR_E pooled = every variant. TC = total uses of distractor tools over every variant.',
    columns: [
      ...labelColumns(data),
      ...half('holistic', 'Holistic'),
      ...half('step_wise', 'Step-wise'),
    ],
    rows: data.tables.table2,
  };
}

function breakdownView(
  data: ReportData,
  id: keyof Tables,
  title: string,
  description: string,
  facet: Column[],
  errorCounts = false,
): TableView {
  const errors: Column[] = errorCounts
    ? E.map((key) => ({
        key: `${key}_n`,
        label: `${key.toUpperCase()} (N)`,
        kind: 'count',
        get: (row: any) => row[`${key}_n`],
      }))
    : [];
  const cells = cellColumns(self, '', APPENDIX, errorCounts ? [] : E);
  return {
    id,
    title,
    description,
    columns: [...labelColumns(data), ...facet, ...cells, ...errors, ...failureColumns(self)],
    rows: data.tables[id] as unknown[],
  };
}

function table18View(data: ReportData): TableView {
  const half = (regime: 'holistic' | 'step_wise', label: string): Column[] => [
    {
      key: `${regime}_cr_orig`,
      label: `${label} CR Orig %`,
      kind: 'rate',
      get: (row) => row[regime].cr_orig,
      decimals: 2,
    },
    {
      key: `${regime}_cr_orig_ci`,
      label: '95 % CI',
      kind: 'ci',
      get: (row) => row[regime].cr_orig_ci,
      decimals: 1,
    },
    {
      key: `${regime}_cr_red`,
      label: 'CR Red %',
      kind: 'rate',
      get: (row) => row[regime].cr_red,
      decimals: 2,
    },
    {
      key: `${regime}_cr_red_ci`,
      label: '95 % CI',
      kind: 'ci',
      get: (row) => row[regime].cr_red_ci,
      decimals: 1,
    },
    {
      key: `${regime}_cr_delta`,
      label: 'Δ',
      kind: 'delta',
      get: (row) => row[regime].cr_delta,
      decimals: 2,
    },
    {
      key: `${regime}_grade_orig`,
      label: 'Grade Orig',
      kind: 'grade',
      get: (row) => row[regime].grade_orig,
    },
    {
      key: `${regime}_grade_red`,
      label: 'Grade Red',
      kind: 'grade',
      get: (row) => row[regime].grade_red,
    },
    {
      key: `${regime}_grade_delta`,
      label: 'Δ',
      kind: 'grade-delta',
      get: (row) => row[regime].grade_delta,
    },
    { key: `${regime}_n_pairs`, label: 'pairs', kind: 'count', get: (row) => row[regime].n_pairs },
    { key: `${regime}_n_orig`, label: 'n Orig', kind: 'count', get: (row) => row[regime].n_orig },
    { key: `${regime}_n_red`, label: 'n Red', kind: 'count', get: (row) => row[regime].n_red },
    {
      key: `${regime}_n_red_unmatched`,
      label: 'unmatched Red',
      kind: 'count',
      get: (row) => row[regime].n_red_unmatched,
    },
    {
      key: `${regime}_cr_red_pooled`,
      label: 'CR Red pooled %',
      kind: 'rate',
      get: (row) => row[regime].cr_red_pooled,
      decimals: 2,
    },
  ];
  return {
    id: 'table18',
    title: 'Table 18 · Base against extraneous, per regime',
    description:
      'Matched pairs: Orig and Red over the same base cases only (Red pooled over their distractor levels), Δ = Red − Orig; unmatched Red = variants without a base row; CR Red pooled = every variant.',
    columns: [
      ...labelColumns(data),
      ...half('holistic', 'Holistic'),
      ...half('step_wise', 'Step-wise'),
    ],
    rows: data.tables.table18,
  };
}

function table4View(data: ReportData): TableView {
  const count = (key: string, label: string, get: Pick): Column => ({
    key,
    label,
    kind: 'count',
    get,
  });
  return {
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
  };
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
  return {
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
  };
}

function table5View(data: ReportData): TableView {
  const cost = (key: string, label: string): Column => ({
    key,
    label,
    kind: 'rate',
    get: (row) => row[key],
    decimals: 2,
  });
  return {
    id: 'table5',
    title: 'Table 5 · Planning efficiency',
    description:
      'Average plan cost over all cases with a plan (C_all), solved cases (C_pass) and cases every model solved (C_com; baselines are not models and stay out of that set). An answer without a plan (refusal, parse failure, failed call) has no cost and is counted under "no plan". A costlier valid plan is correct; cost is measured here, not judged.',
    columns: [
      ...labelColumns(data),
      ...cellColumns(self, '', { rate: 1, grade: 3 }, []),
      cost('c_all', 'C_all'),
      cost('c_pass', 'C_pass'),
      cost('c_com', 'C_com'),
      { key: 'common_cases', label: 'common cases', kind: 'count', get: (row) => row.common_cases },
      { key: 'no_plan', label: 'no plan', kind: 'count', get: (row) => row.no_plan },
      ...failureColumns(self),
    ],
    rows: data.tables.table5,
  };
}

function errorViews(data: ReportData): TableView[] {
  const rates: Column[] = E.map((key) => ({
    key: `${key}_rate`,
    label: `${key.toUpperCase()} %`,
    kind: 'rate',
    get: (row: any) => row.rates[key],
  }));
  const shares: Column[] = E.map((key) => ({
    key: `${key}_share`,
    label: `${key.toUpperCase()} share %`,
    kind: 'rate',
    get: (row: any) => row.shares[key],
  }));
  const counts: Column[] = [
    { key: 'n', label: 'n', kind: 'count', get: (row) => row.n },
    { key: 'flagged', label: 'with any error', kind: 'count', get: (row) => row.flagged },
  ];
  return [
    {
      id: 'error_incidence_by_setting',
      title: 'Error incidence by setting',
      description:
        "Percent of cases flagged with each error (a case may carry several), and each error's share of all flags (Fig. 3).",
      columns: [...labelColumns(data), text('setting', 'Setting'), ...counts, ...rates, ...shares],
      rows: data.tables.error_incidence.by_setting,
    },
    {
      id: 'error_incidence_by_model',
      title: 'Error incidence by model (holistic + step-wise planning)',
      description: 'Fig. 58/59 data.',
      columns: [...labelColumns(data), ...counts, ...rates, ...shares],
      rows: data.tables.error_incidence.by_model,
    },
  ];
}

function pairedView(data: ReportData): TableView {
  return {
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
  };
}

function repeatsView(data: ReportData): TableView {
  return {
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
  };
}

/** Every non-empty table of the report, in reading order. */
export function tableViews(data: ReportData): TableView[] {
  const views: TableView[] = [
    ...table1Views(data),
    table2View(data),
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
      'ExtUse = total uses of distractor tools at the level.',
      [
        text('level', 'Level'),
        { key: 'ext_use', label: 'ExtUse', kind: 'count', get: (row) => row.ext_use },
      ],
    ),
    breakdownView(
      data,
      'table17',
      'Table 17 · Holistic tool-extraneous by distractor level',
      'ExtUse = total uses of distractor tools at the level.',
      [
        text('level', 'Level'),
        { key: 'ext_use', label: 'ExtUse', kind: 'count', get: (row) => row.ext_use },
      ],
    ),
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
