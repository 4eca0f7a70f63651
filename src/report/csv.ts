/**
 * `ReportData` → CSV, one file per table (`{id}.csv`), with raw unrounded values; intervals become
 * `_lo` / `_hi` columns.
 */
import type { Interval } from '../metrics/intervals.js';
import type { ReportData } from './report-data.js';
import { headlineViews } from './headline-views.js';
import { tableViews, type Column } from './table-views.js';

/** One CSV field (RFC 4180 quoting); text that a spreadsheet would run as a formula is prefixed with a quote. */
export function csvField(value: unknown, kind: Column['kind'] = 'text'): string {
  if (value === null || value === undefined) return '';
  let text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if ((kind === 'text' || kind === 'model' || kind === 'judge') && /^[=+\-@\t\r]/.test(text))
    text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function headerOf(column: Column): string[] {
  if (column.kind === 'rate-ci') return [column.key, `${column.key}_lo`, `${column.key}_hi`];
  return column.kind === 'ci' ? [`${column.key}_lo`, `${column.key}_hi`] : [column.key];
}

function fieldsOf(column: Column, value: unknown): string[] {
  if (column.kind === 'rate-ci') {
    const cell = value as { value: number | null; ci: Interval | null } | null;
    return [
      csvField(cell?.value ?? null, 'rate'),
      csvField(cell?.ci?.lo ?? null, 'rate'),
      csvField(cell?.ci?.hi ?? null, 'rate'),
    ];
  }
  if (column.kind !== 'ci') return [csvField(value, column.kind)];
  const range = value as Interval | null;
  return [csvField(range?.lo ?? null, 'rate'), csvField(range?.hi ?? null, 'rate')];
}

/**
 * The one table a single CSV (stdout, or `--out FILE.csv`) holds: the scorecard, one row per model
 * and judge with every headline rate and its interval. The directory form holds every table.
 */
export const HEADLINE_CSV = 'scorecard.csv';

/** CSV text: a header, rows, CRLF line ends and a final CRLF. */
const csvText = (lines: readonly string[]) => `${lines.join('\r\n')}\r\n`;

/**
 * Renders every non-empty table as CSV text, keyed by file name (`scorecard.csv`, `usage.csv`,
 * `table1_holistic.csv`, …), plus `runs.csv` and `notes.csv`.
 */
export function renderCsv(data: ReportData): Record<string, string> {
  const files: Record<string, string> = {};
  for (const view of [...headlineViews(data), ...tableViews(data)]) {
    const lines = [view.columns.flatMap(headerOf).join(',')];
    for (const row of view.rows)
      lines.push(view.columns.flatMap((column) => fieldsOf(column, column.get(row))).join(','));
    files[`${view.id}.csv`] = csvText(lines);
  }
  files['runs.csv'] = runsCsv(data);
  if (data.paper) files['paper_comparison.csv'] = paperCsv(data.paper);
  // The caveats every other format prints above its tables: comparability, coverage, baselines.
  const caveats = data.paper
    ? [
        ...data.paper.caveats,
        ...data.paper.models.flatMap((model) =>
          model.caveats.map((caveat) => `${model.model}: ${caveat}`),
        ),
      ]
    : [];
  const notes = [...data.banners, ...data.notes, ...caveats].map((note) => csvField(note));
  files['notes.csv'] = csvText(['note', ...notes]);
  return files;
}

/** `runs.csv`: one line per run directory read. */
function runsCsv(data: ReportData): string {
  const header = [
    'dir',
    'source',
    'status',
    'dataset',
    'dataset_hash',
    'cases',
    'models',
    'judges',
    'judgements',
    'unreadable_lines',
    'duplicates',
  ];
  const lines = data.runs.map((run) =>
    [
      run.dir,
      run.source,
      run.status,
      run.dataset,
      run.datasetHash,
      run.cases,
      run.models.join(' '),
      run.judges.join(' '),
      run.judgements,
      run.issues.length,
      run.duplicates,
    ]
      .map((value) => csvField(value))
      .join(','),
  );
  return csvText([header.join(','), ...lines]);
}

/** `paper_comparison.csv`: one line per compared cell, numbers at full precision. */
function paperCsv(paper: NonNullable<ReportData['paper']>): string {
  const header = [
    'model',
    'judge',
    'paper_model',
    'table',
    'row',
    'column',
    'ours',
    'ci_lo',
    'ci_hi',
    'n',
    'paper',
    'exact',
    'within_ci',
    'note',
  ];
  const cells = paper.models.flatMap((model) =>
    model.cells.map((cell) => [
      model.model,
      model.judge,
      model.paperModel,
      cell.table,
      cell.row,
      cell.column,
      cell.ours,
      cell.ci?.lo ?? null,
      cell.ci?.hi ?? null,
      cell.n,
      cell.paper,
      cell.matches,
      cell.withinCi,
      cell.note,
    ]),
  );
  const lines = cells.map((values) =>
    values.map((value) => csvField(value, typeof value === 'number' ? 'rate' : 'text')).join(','),
  );
  return csvText([header.join(','), ...lines]);
}
