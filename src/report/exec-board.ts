/**
 * `apb report EXEC_DIR...` (I/O edge and renderers): one or many exec run directories (model runs and replays)
 * as a Table 3 leaderboard — each directory's Table 3 rows, ranked by their best mode's mean reward, with the
 * directory beside them, then every directory's outcomes by mode. Markdown, JSON or a self-contained HTML page;
 * each directory's own report (with its case browser) stays `DIR/report.html`.
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import type { Table3Row } from '../metrics/executable.js';
import { UsageError } from '../errors.js';
import type { PriceOf } from '../execution/exec-scores.js';
import { escapeHtml } from './escape.js';
import { MODE_OUTCOME_HEADER, modeOutcomeRows } from './exec-filters.js';
import { TABLE3_HEADER, table3Cells } from './exec-report.js';
import { REPORT_CSS } from './html-style.js';
import { markdownTable } from './markdown.js';
import { renderExecReports, type ExecReports } from './write-exec-reports.js';
import type { ExecutionLine } from '../execution/records.js';
import { plainTable } from './html-table.js';

/** One directory's part of the board. */
export interface ExecBoardRun {
  dir: string;
  reports: ExecReports;
  lines: readonly ExecutionLine[];
}

/** A ranked Table 3 row and the directory it came from; floors and rows without a mode are unranked. */
interface RankedRow {
  rank: number | null;
  dir: string;
  row: Table3Row;
  best: number | null;
}

const bestOf = (row: Table3Row): number | null => {
  const values = [row.direct, row.plan_first, row.refine].filter(
    (value): value is number => value !== null,
  );
  return values.length > 0 ? Math.max(...values) : null;
};

/**
 * Every directory's Table 3 rows, grouped by environment (a pooled row is its own environment): in
 * each, the floor first, then tested models best mean reward first, ranked from 1 within the
 * environment — ranks across environments, or against the floor, would compare unlike things.
 */
export function rankedRows(runs: readonly ExecBoardRun[]): RankedRow[] {
  const rows = runs.flatMap((run) =>
    run.reports.scores.tables.table3.map((row) => ({ dir: run.dir, row, best: bestOf(row) })),
  );
  const envs = [...new Set(rows.map((entry) => entry.row.env))];
  return envs.flatMap((env) => {
    const mine = rows.filter((entry) => entry.row.env === env);
    const floors = mine.filter((entry) => entry.row.floor);
    const ranked = mine
      .filter((entry) => !entry.row.floor && entry.best !== null)
      .sort((a, b) => b.best! - a.best!);
    const unranked = mine.filter((entry) => !entry.row.floor && entry.best === null);
    return [
      ...floors.map((entry) => ({ ...entry, rank: null })),
      ...ranked.map((entry, index) => ({ ...entry, rank: index + 1 })),
      ...unranked.map((entry) => ({ ...entry, rank: null })),
    ];
  });
}

/** Loads each exec run directory (its lines, scores and reports as they are now). */
export async function loadExecBoard(
  dirs: readonly string[],
  priceOf: PriceOf,
  options: { comparePaper?: boolean; limits?: Limits | undefined } = {},
): Promise<ExecBoardRun[]> {
  const runs: ExecBoardRun[] = [];
  for (const dir of dirs) {
    const reports = await renderExecReports(dir, priceOf, options);
    runs.push({ dir, reports, lines: reports.lines });
  }
  return runs;
}

const BOARD_HEADER = ['Rank', ...TABLE3_HEADER, 'Run'];
const OUTCOMES_HEADER = ['Run', ...MODE_OUTCOME_HEADER];

function boardCells(runs: readonly ExecBoardRun[], shown: (dir: string) => string): string[][] {
  return rankedRows(runs).map((entry) => [
    entry.rank === null ? (entry.row.floor ? 'floor' : '–') : String(entry.rank),
    ...table3Cells(entry.row),
    shown(entry.dir),
  ]);
}

function outcomeCells(runs: readonly ExecBoardRun[], shown: (dir: string) => string): string[][] {
  return runs.flatMap((run) => modeOutcomeRows(run.lines).map((row) => [shown(run.dir), ...row]));
}

const NOTE =
  "Ranked within each environment by a row's best mean over its modes (its Metric column), the " +
  'do-nothing floor first and unranked. A replay has no Table 3 mode: its reward is under Outcomes by mode.';

/** The board as Markdown. */
export function execBoardMarkdown(
  runs: readonly ExecBoardRun[],
  shown: (dir: string) => string,
): string {
  return `${[
    '# Executable validation leaderboard (paper §5.1, Table 3)',
    '',
    `${runs.length} exec run(s). ${NOTE}`,
    '',
    markdownTable(BOARD_HEADER, boardCells(runs, shown)),
    '',
    '## Outcomes by mode',
    '',
    markdownTable(OUTCOMES_HEADER, outcomeCells(runs, shown)),
  ].join('\n')}\n`;
}

/** The board as one self-contained HTML page (no script). */
export function execBoardHtml(
  runs: readonly ExecBoardRun[],
  shown: (dir: string) => string,
): string {
  const body = [
    `<p class="note">${runs.length} exec run(s). ${escapeHtml(NOTE)}</p>`,
    '<h2>Table 3</h2>',
    plainTable(BOARD_HEADER, boardCells(runs, shown)),
    '<h2>Outcomes by mode</h2>',
    plainTable(OUTCOMES_HEADER, outcomeCells(runs, shown)),
    `<p class="note">Each run's executions, with the case browser: ${runs.map((run) => `<code>${escapeHtml(path.join(shown(run.dir), 'report.html'))}</code>`).join(', ')}.</p>`,
  ].join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>apb exec leaderboard</title><style>${REPORT_CSS}</style></head><body><header class="top"><h1>apb exec — executable validation leaderboard</h1></header><main>${body}</main></body></html>\n`;
}

/** The board as JSON: ranked rows with their directory, and each directory's scores. */
export function execBoardJson(runs: readonly ExecBoardRun[]): string {
  const board = rankedRows(runs).map(({ rank, dir, row }) => ({ rank, dir, ...row }));
  const scores = runs.map((run) => ({ dir: run.dir, scores: run.reports.scores }));
  return `${JSON.stringify({ schema_version: 1, kind: 'exec_board', table3: board, runs: scores }, null, 2)}\n`;
}

/** Renders the board in a `--format`; CSV is refused (one table per run is in each exec-scores.json). */
export function renderExecBoard(
  runs: readonly ExecBoardRun[],
  format: string,
  shown: (dir: string) => string,
): string {
  if (format === 'md') return execBoardMarkdown(runs, shown);
  if (format === 'html') return execBoardHtml(runs, shown);
  if (format === 'json') return execBoardJson(runs);
  throw new UsageError(
    `--format ${format} is not available for exec run directories: give md, json or html`,
  );
}
