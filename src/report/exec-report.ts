/**
 * The exec report (pure renderers): Table 3, usage and cost by role, terminations, and — in HTML —
 * the case browser of every execution (`exec-cases.ts`). Model and tool text is untrusted: every
 * piece is escaped.
 */
import { structuralJudgeNote, type ExecScores } from '../execution/exec-scores.js';
import type { ExecutionLine } from '../execution/records.js';
import type { Table3Row } from '../metrics/executable.js';
import { setupDifferences, type Table3Comparison } from './exec-paper.js';
import { floorNote, playersNote, pooledNote, PLANNER_CONTEXT_NOTE } from './exec-notes.js';
import {
  toolSandboxHtml,
  toolSandboxMarkdown,
  type ToolSandboxPaperComparison,
} from './exec-toolsandbox.js';
import { escapeHtml } from './escape.js';
import { EXEC_CSS, executionHtml } from './exec-cases.js';
import {
  filterBar,
  FILTER_CSS,
  FILTER_SCRIPT,
  MODE_OUTCOME_HEADER,
  modeOutcomeRows,
} from './exec-filters.js';
import { REPORT_CSS } from './html-style.js';
import { plainTable } from './html-table.js';
import { markdownTable } from './markdown.js';
import { count, fixed } from './numbers.js';
import { PLAN_VERDICT_HEADER, PLAN_VERDICT_NOTE, planVerdictCells } from './plan-verdict-table.js';

/** Table 3's columns as printed: mean rewards to 2 decimals, CR to 1, grades to 2 (the paper's decimals). */
export function table3Cells(row: Table3Row): string[] {
  const arrow = (before: number | null, after: number | null, decimals: number) =>
    `${fixed(before, decimals)} → ${fixed(after, decimals)}`;
  return [
    row.env,
    row.floor ? `${row.model} (floor: scripted, no model call)` : row.model,
    row.metric,
    fixed(row.direct, 2),
    fixed(row.plan_first, 2),
    fixed(row.refine, 2),
    arrow(row.apb_cr_before, row.apb_cr_after, 1),
    arrow(row.apb_grade_before, row.apb_grade_after, 2),
    row.domains
      ? `${count(row.n)} (${Object.entries(row.domains)
          .map(([domain, n]) => `${domain} ${n}`)
          .join(', ')})`
      : count(row.n),
    count(row.trials),
  ];
}

export const TABLE3_HEADER = [
  'Environment',
  'Model',
  'Metric',
  'Direct',
  'Plan-first',
  'Refine',
  'APB CR',
  'APB Grade',
  'Tasks',
  'Trials',
];

function passHatKRows(rows: readonly Table3Row[]): string[][] {
  return rows.flatMap((row) =>
    Object.entries(row.pass_hat_k ?? {}).map(([mode, ks]) => [
      row.env,
      row.model,
      mode,
      Object.entries(ks)
        .map(([k, value]) => `pass^${k} ${fixed(value, 3)}`)
        .join(', '),
    ]),
  );
}

function detailRows(rows: readonly Table3Row[]): string[][] {
  return rows.flatMap((row) =>
    Object.entries(row.detail.modes).map(([mode, figures]) => [
      row.env,
      row.model,
      mode,
      count(figures.runs),
      count(figures.unevaluated),
      count(figures.infrastructure_errors),
      fixed(figures.reward_if_nl_met, 2),
    ]),
  );
}

/** The paper comparison's rows: one per compared cell. */
function paperRows(comparison: readonly Table3Comparison[]): string[][] {
  return comparison.flatMap((entry) =>
    entry.notCompared
      ? [[`${entry.model} (${entry.env})`, `not compared: ${entry.notCompared}`, '', '', '', '']]
      : entry.cells.length === 0
        ? [[entry.model, '(not in the paper)', '', '', '', '']]
        : entry.cells.map((cell) => [
            entry.model,
            entry.paperModel ?? '',
            cell.column,
            fixed(cell.oursRounded, cell.decimals),
            fixed(cell.paper, cell.decimals),
            cell.matches ? 'yes' : 'no',
          ]),
  );
}

const PAPER_HEADER = ['Model', "Paper's model", 'Column', 'Ours', 'Paper (τ²-bench)', 'Match'];
const PAPER_NOTE =
  "The paper's τ²-bench rows (200 tasks pooled over the domains) beside our pooled tau2 rows, ours rounded to its printed decimals; one domain's row is never set beside them (ToolSandbox's rows are compared in their own section). Setup differences:";

const TABLE3_NOTE =
  "Mean task reward per mode (tau2-bench's reward); APB CR and Grade of the draft plan → the refined plan. Runs left out of the means:";
const DETAIL_HEADER = [
  'Environment',
  'Model',
  'Mode',
  'Rewarded runs',
  'NL assertions not judged',
  'Infrastructure errors',
  'Mean if NL assertions held',
];
const TERMINATION_HEADER = ['Termination', 'Executions'];
const USAGE_HEADER = [
  'Role',
  'Model',
  'Calls',
  'Cached',
  'Input tokens',
  'Output tokens',
  'Cost (USD)',
];

/** Where the costs come from: the price table and its date. */
const pricesNote = (asOf: string) =>
  `Costs at the prices of data/prices.json as of ${asOf}; "unknown" where a model has no price there.`;

function terminationRows(scores: ExecScores): string[][] {
  return Object.entries(scores.terminations).map(([name, value]) => [name, count(value)]);
}

function usageRows(scores: ExecScores): string[][] {
  return Object.entries(scores.usage).map(([role, usage]) => [
    role,
    usage.model ?? '(several)',
    count(usage.calls),
    count(usage.cached_calls),
    count(usage.input_tokens),
    count(usage.output_tokens),
    usage.cost_usd === null ? 'unknown' : fixed(usage.cost_usd, 4),
  ]);
}

/** The setup behind the numbers: players, the planner's context, the floors, the pooling. */
function setupLines(scores: ExecScores): string[] {
  return [playersNote(scores), PLANNER_CONTEXT_NOTE, floorNote(scores), pooledNote(scores)].filter(
    (line): line is string => line !== null,
  );
}

const differencesOf = (scores: ExecScores) =>
  setupDifferences(scores.tables.table3, scores.players);

/** The exec report as Markdown (with the paper's Table 3 beside ours when `paper` is given; outcomes by mode from `lines`). */
export function execMarkdown(
  scores: ExecScores,
  paper?: readonly Table3Comparison[],
  toolsandboxPaper?: readonly ToolSandboxPaperComparison[],
  lines: readonly ExecutionLine[] = [],
): string {
  const rows = scores.tables.table3;
  const parts = [
    '# Executable validation (paper §5.1, Table 3)',
    '',
    `${count(scores.executions)} execution(s) from ${count(scores.openings)} opening(s).`,
    ...(structuralJudgeNote(scores) ? ['', `**${structuralJudgeNote(scores)}**`] : []),
    ...setupLines(scores).flatMap((line) => ['', line]),
    '',
    '## Table 3',
    '',
    markdownTable(TABLE3_HEADER, rows.map(table3Cells)),
  ];
  parts.push('', TABLE3_NOTE, '', markdownTable(DETAIL_HEADER, detailRows(rows)));
  if (lines.length > 0)
    parts.push(
      '',
      '## Outcomes by mode',
      '',
      markdownTable(MODE_OUTCOME_HEADER, modeOutcomeRows(lines)),
    );
  parts.push(...toolSandboxMarkdown(scores.tables.toolsandbox, toolsandboxPaper));
  const ks = passHatKRows(rows);
  if (ks.length > 0)
    parts.push('', '## pass^k', '', markdownTable(['Environment', 'Model', 'Mode', 'pass^k'], ks));
  const verdicts = scores.tables.plan_verdict_reward ?? [];
  if (verdicts.length > 0)
    parts.push(
      '',
      '## Plan verdict × reward',
      '',
      PLAN_VERDICT_NOTE,
      '',
      markdownTable(PLAN_VERDICT_HEADER, verdicts.map(planVerdictCells)),
    );
  parts.push('', '## Terminations', '', markdownTable(TERMINATION_HEADER, terminationRows(scores)));
  parts.push('', '## Usage and cost by role', '', markdownTable(USAGE_HEADER, usageRows(scores)));
  if (scores.prices_as_of) parts.push('', pricesNote(scores.prices_as_of));
  if (paper)
    parts.push(
      '',
      '## Compared with the paper (Table 3)',
      '',
      PAPER_NOTE,
      '',
      ...differencesOf(scores).map((line) => `- ${line}`),
      '',
      markdownTable(PAPER_HEADER, paperRows(paper)),
    );
  return `${parts.join('\n')}\n`;
}

/** The exec report as one self-contained HTML page with the case browser. */
export function execHtml(
  scores: ExecScores,
  lines: readonly ExecutionLine[],
  paper?: readonly Table3Comparison[],
  toolsandboxPaper?: readonly ToolSandboxPaperComparison[],
): string {
  const rows = scores.tables.table3;
  const ks = passHatKRows(rows);
  const structural = structuralJudgeNote(scores);
  const body = [
    structural ? `<p class="note"><strong>${escapeHtml(structural)}</strong></p>` : '',
    ...setupLines(scores).map((line) => `<p class="note">${escapeHtml(line)}</p>`),
    '<h2>Table 3</h2>',
    plainTable(TABLE3_HEADER, rows.map(table3Cells)),
    `<p class="note">${escapeHtml(TABLE3_NOTE)}</p>`,
    plainTable(DETAIL_HEADER, detailRows(rows)),
    lines.length > 0
      ? `<h2>Outcomes by mode</h2>${plainTable(MODE_OUTCOME_HEADER, modeOutcomeRows(lines))}`
      : '',
    toolSandboxHtml(scores.tables.toolsandbox, toolsandboxPaper),
    ks.length > 0
      ? `<h2>pass^k</h2>${plainTable(['Environment', 'Model', 'Mode', 'pass^k'], ks)}`
      : '',
    (scores.tables.plan_verdict_reward ?? []).length > 0
      ? `<h2>Plan verdict × reward</h2><p class="note">${escapeHtml(PLAN_VERDICT_NOTE)}</p>${plainTable(PLAN_VERDICT_HEADER, scores.tables.plan_verdict_reward!.map(planVerdictCells))}`
      : '',
    `<h2>Terminations</h2>${plainTable(TERMINATION_HEADER, terminationRows(scores))}`,
    `<h2>Usage and cost by role</h2>${plainTable(USAGE_HEADER, usageRows(scores))}${scores.prices_as_of ? `<p class="note">${escapeHtml(pricesNote(scores.prices_as_of))}</p>` : ''}`,
    paper
      ? `<h2>Compared with the paper (Table 3)</h2><p class="note">${escapeHtml(PAPER_NOTE)}</p><ul>${differencesOf(
          scores,
        )
          .map((line) => `<li>${escapeHtml(line)}</li>`)
          .join('')}</ul>${plainTable(PAPER_HEADER, paperRows(paper))}`
      : '',
    `<h2>Executions (${lines.length})</h2>`,
    filterBar(lines),
    ...lines.map(executionHtml),
  ].join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>apb exec report</title><style>${REPORT_CSS}${EXEC_CSS}${FILTER_CSS}</style></head><body><header class="top"><h1>apb exec — executable validation</h1></header><main>${body}</main><script>${FILTER_SCRIPT}</script></body></html>\n`;
}
