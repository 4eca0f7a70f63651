/**
 * The exec reports' ToolSandbox section: Table 3's ToolSandbox rows (mean trajectory similarity in
 * percent per mode, APB CR and grade before → after) and, with `--compare-paper`, the paper's
 * ToolSandbox rows (§5.1 Table 3) beside ours at its printed decimals, with the differences in
 * setup stated. Pure renderers; the rows come from `exec-scores.json`'s `tables.toolsandbox`.
 */
import { z } from 'zod';
import type { ToolSandboxTable3Row } from '../execution/environments/toolsandbox/table3.js';
import { escapeHtml } from './escape.js';
import { markdownTable } from './markdown.js';
import { count, fixed, roundTo } from './numbers.js';
import { paperTable3Rows, type PaperRow } from './exec-paper.js';
import { matchPaperModel, PaperTablesSchema } from './paper.js';
import { plainTable } from './html-table.js';

/** One of our ToolSandbox cells beside the paper's. */
export interface ToolSandboxPaperCell {
  column: string;
  ours: number | null;
  paper: number;
  decimals: number;
  matches: boolean;
}

/** Our ToolSandbox row against the paper's row for the same model. */
export interface ToolSandboxPaperComparison {
  model: string;
  paperModel: string | null;
  cells: ToolSandboxPaperCell[];
}

const COLUMNS: Array<[keyof ToolSandboxTable3Row, keyof z.infer<typeof PaperRow>, number]> = [
  ['direct_pct', 'direct_exec', 1],
  ['plan_first_pct', 'plan_first_exec', 1],
  ['refine_pct', 'refine_exec', 1],
  ['apb_cr_before', 'apb_cr_before', 1],
  ['apb_cr_after', 'apb_cr_after', 1],
  ['apb_grade_before', 'apb_grade_before', 2],
  ['apb_grade_after', 'apb_grade_after', 2],
];

/** Where apb's ToolSandbox runs differ from the paper's (stated with every comparison). */
export const TOOLSANDBOX_SETUP_NOTE =
  "Setup differences: the paper does not name its 200 ToolSandbox scenarios, its user-simulator model, trials or seed. apb runs the 200 of data/toolsandbox/subset-200.txt (all 91 offline base scenarios and 109 of their variants drawn with seed 42), offline only (the 38 RapidAPI bases are left out; a RapidAPI tool answers a fixed 'service unavailable' error), under a frozen clock (2024-09-02T12:00:00Z unless --clock), with apb's wording of ToolSandbox's user-simulator rules on --user-model, and the agent's tools and first user message as ToolSandbox builds them. APB CR and grade are comparable only with an LLM --judge.";

/**
 * Compares our ToolSandbox rows with the paper's; `paperJson` is data/paper-tables.json as parsed
 * JSON.
 */
export function compareToolSandbox(
  rows: readonly ToolSandboxTable3Row[],
  paperJson: unknown,
): ToolSandboxPaperComparison[] {
  const paper = PaperTablesSchema.parse(paperJson);
  const published = paperTable3Rows(paperJson, 'ToolSandbox');
  return rows.map((row) => {
    const canonical = matchPaperModel(row.model, paper);
    const match = canonical
      ? published.find((item) => (paper.model_aliases[item.model] ?? item.model) === canonical)
      : undefined;
    const cells = match
      ? COLUMNS.map(([ours, column, decimals]) => {
          const value = row[ours] as number | null;
          const rounded = value === null ? null : roundTo(value, decimals);
          const printed = match[column] as number;
          return {
            column: String(ours),
            ours: rounded,
            paper: printed,
            decimals,
            matches: rounded !== null && Math.abs(rounded - printed) < 1e-9,
          };
        })
      : [];
    return { model: row.model, paperModel: match?.model ?? null, cells };
  });
}

const ROW_HEADER = ['Model', 'Direct %', 'Plan-first %', 'Refine %', 'APB CR', 'APB Grade', 'n'];
const MODE_HEADER = ['Model', 'Mode', 'Executions', 'Minefield hits', 'Mean turns'];
const PAPER_HEADER = ['Model', "Paper's model", 'Column', 'Ours', 'Paper (ToolSandbox)', 'Match'];
const ROWS_NOTE =
  "ToolSandbox's average trajectory similarity (%) per mode: the milestones' best alignment, 0 when a minefield is hit; APB CR and grade of the draft plan → the refined plan.";

function rowCells(row: ToolSandboxTable3Row): string[] {
  return [
    row.model,
    fixed(row.direct_pct, 1),
    fixed(row.plan_first_pct, 1),
    fixed(row.refine_pct, 1),
    `${fixed(row.apb_cr_before, 1)} → ${fixed(row.apb_cr_after, 1)}`,
    `${fixed(row.apb_grade_before, 2)} → ${fixed(row.apb_grade_after, 2)}`,
    count(row.n),
  ];
}

function modeRows(rows: readonly ToolSandboxTable3Row[]): string[][] {
  return rows.flatMap((row) =>
    Object.entries(row.modes).map(([mode, figures]) => [
      row.model,
      mode,
      count(figures.executions),
      count(figures.minefield_hits),
      fixed(figures.mean_turns, 1),
    ]),
  );
}

function paperRows(comparison: readonly ToolSandboxPaperComparison[]): string[][] {
  return comparison.flatMap((entry) =>
    entry.cells.length === 0
      ? [[entry.model, '(not in the paper)', '', '', '', '']]
      : entry.cells.map((cell) => [
          entry.model,
          entry.paperModel ?? '',
          cell.column,
          fixed(cell.ours, cell.decimals),
          fixed(cell.paper, cell.decimals),
          cell.matches ? 'yes' : 'no',
        ]),
  );
}

/** The section in Markdown (empty when the run has no ToolSandbox rows). */
export function toolSandboxMarkdown(
  rows: readonly ToolSandboxTable3Row[] | undefined,
  paper?: readonly ToolSandboxPaperComparison[],
): string[] {
  if (!rows || rows.length === 0) return [];
  const parts = ['', '## Table 3: ToolSandbox', '', markdownTable(ROW_HEADER, rows.map(rowCells))];
  parts.push('', ROWS_NOTE, '', markdownTable(MODE_HEADER, modeRows(rows)));
  if (paper)
    parts.push(
      '',
      '### Compared with the paper (ToolSandbox rows)',
      '',
      TOOLSANDBOX_SETUP_NOTE,
      '',
      markdownTable(PAPER_HEADER, paperRows(paper)),
    );
  return parts;
}

/** The section in HTML (empty when the run has no ToolSandbox rows). */
export function toolSandboxHtml(
  rows: readonly ToolSandboxTable3Row[] | undefined,
  paper?: readonly ToolSandboxPaperComparison[],
): string {
  if (!rows || rows.length === 0) return '';
  const compared = paper
    ? `<h3>Compared with the paper (ToolSandbox rows)</h3><p class="note">${escapeHtml(TOOLSANDBOX_SETUP_NOTE)}</p>${plainTable(PAPER_HEADER, paperRows(paper))}`
    : '';
  return `<h2>Table 3: ToolSandbox</h2>${plainTable(ROW_HEADER, rows.map(rowCells))}<p class="note">${escapeHtml(ROWS_NOTE)}</p>${plainTable(MODE_HEADER, modeRows(rows))}${compared}`;
}
