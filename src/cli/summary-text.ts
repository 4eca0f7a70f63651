/**
 * The end-of-run summary in the terminal: a headline table (one row per model and judge, n beside
 * every number), then per model its outcomes, top failure reasons and usage, then where the report
 * is and how to open it; an `apb exec` entry shows Table 3's row (mean reward per mode with n, APB CR of the
 * draft → the refined plan), its outcomes, terminations and pass^k instead of the headline numbers. Model ids and
 * reasons are untrusted text: `say` strips control characters.
 */
import path from 'node:path';
import type { HeadlineKey } from '../report/scorecard.js';
import { count, fixed, interval, usd } from '../report/numbers.js';
import type {
  EndOfRunSummary,
  ExecModeNumber,
  ExecSummaryFigures,
  SummaryEntry,
} from '../report/run-summary.js';
import { judgeLabel, modelLabel } from '../report/labels.js';
import { TOTALS_CORRECT_NOTE } from '../report/scorecard.js';
import { terminalWidth } from './fit.js';
import { say } from './terminal.js';

/** `12.3 s`, `4 min 05 s`, `1 h 02 min`. */
export function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function textTable(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render)];
}

/**
 * The headline numbers as a table, or, when that is wider than the terminal, as one block per
 * model with a number per line (a table cut at the edge hides the numbers on its right).
 */
function headlineLines(entries: readonly SummaryEntry[], width: number | null): string[] {
  const table = headlineTable(entries).map((line) => `  ${line}`);
  if (width === null || table.every((line) => line.length <= width)) return table;
  const several = new Set(entries.map((entry) => entry.judge)).size > 1;
  return entries.flatMap((entry) => [
    `  ${modelLabel(entry.model)}${several ? ` · judge ${judgeLabel(entry.judge)}` : ''}`,
    ...entry.headline.map(
      (cell) =>
        `    ${`${cell.label} %`.padEnd(22)} ${fixed(cell.value, 1)} [${interval(cell.ci, 1)}] n=${count(cell.n)}`,
    ),
  ]);
}

function headlineTable(entries: readonly SummaryEntry[]): string[] {
  const labels = [...new Set(entries.flatMap((entry) => entry.headline.map((cell) => cell.label)))];
  if (labels.length === 0) return [];
  const several = new Set(entries.map((entry) => entry.judge)).size > 1;
  const rows = entries.map((entry) => [
    several ? `${modelLabel(entry.model)} · ${judgeLabel(entry.judge)}` : modelLabel(entry.model),
    ...labels.map((label) => {
      const cell = entry.headline.find((item) => item.label === label);
      return cell ? `${fixed(cell.value, 1)} [${interval(cell.ci, 1)}] n=${count(cell.n)}` : '–';
    }),
  ]);
  return textTable(
    [
      several ? 'model · judge' : `model (judge ${judgeLabel(entries[0]!.judge)})`,
      ...labels.map((label) => `${label} %`),
    ],
    rows,
  );
}

// apb exec: Table 3's row and the executions' outcomes.

const COLUMNS = ['direct', 'plan_first', 'refine'] as const;
const LABEL: Record<string, string> = {
  direct: 'direct',
  plan_first: 'plan-first',
  refine: 'refine',
};

/** `0.63 n=200`, with the runs left out when there are any: `+3 unjudged (≤ 0.70)`, `+1 infra error`. */
function modeCell(mode: ExecModeNumber | undefined): string {
  if (!mode) return '–';
  const parts = [`${fixed(mode.reward, 2)} n=${count(mode.n)}`];
  if (mode.unevaluated > 0)
    parts.push(`+${count(mode.unevaluated)} unjudged (≤ ${fixed(mode.reward_if_nl_met, 2)})`);
  if (mode.infrastructure_errors > 0)
    parts.push(`+${count(mode.infrastructure_errors)} infra error`);
  return parts.join(' ');
}

function crCell(apb: ExecSummaryFigures['apb']): string {
  if (apb.plans_before === 0 && apb.plans_after === 0) return '–';
  return `${fixed(apb.cr_before, 1)} → ${fixed(apb.cr_after, 1)} (n=${count(apb.plans_before)}/${count(apb.plans_after)})`;
}

/** Table 3's rows of the summary's exec entries (nothing when it has none). */
export function execTable(entries: readonly SummaryEntry[]): string[] {
  const execs = entries.filter(
    (entry): entry is SummaryEntry & { exec: ExecSummaryFigures } => entry.exec !== undefined,
  );
  if (execs.length === 0) return [];
  const columns = COLUMNS.filter((column) =>
    execs.some((entry) => entry.exec.modes.some((mode) => mode.mode === column)),
  );
  const rows = execs.map((entry) => [
    `${entry.exec.env} · ${modelLabel(entry.model)}`,
    ...columns.map((column) => modeCell(entry.exec.modes.find((mode) => mode.mode === column))),
    crCell(entry.exec.apb),
  ]);
  return textTable(
    [
      'env · model (mean reward)',
      ...columns.map((column) => LABEL[column]!),
      'APB CR % draft → refined',
    ],
    rows,
  );
}

/** An exec entry's own lines: outcomes, terminations, pass^k. */
export function execEntryLines(exec: ExecSummaryFigures): string[] {
  const outcome = exec.outcomes;
  const lines = [
    `    outcomes: ${count(outcome.executions)} executions of ${count(exec.tasks)} task(s) × ${count(exec.trials)} trial(s) · ${count(outcome.success)} reward 1 · ${count(outcome.failed)} below 1 · ${count(outcome.unevaluated)} not evaluated · ${count(outcome.infrastructure_errors)} infrastructure error · ${count(outcome.tool_errors)} tool errors`,
    `    terminations: ${
      Object.entries(exec.terminations)
        .map(([name, value]) => `${name} ${count(value)}`)
        .join(' · ') || 'none'
    }`,
  ];
  const ks = exec.modes.filter(
    (mode) => mode.pass_hat_k && Object.keys(mode.pass_hat_k).length > 0,
  );
  if (ks.length > 0)
    lines.push(
      `    pass^k: ${ks
        .map(
          (mode) =>
            `${LABEL[mode.mode]} ${Object.entries(mode.pass_hat_k!)
              .map(([k, value]) => `pass^${k} ${fixed(value, 3)}`)
              .join(', ')}`,
        )
        .join(' · ')}`,
    );
  return lines;
}

/** The total cost; with a role whose price is unknown, what is known as a lower bound and which roles lack a price. */
function totalText(entry: SummaryEntry): string {
  if (entry.cost_usd !== null) return `total ${usd(entry.cost_usd)}`;
  const unknown = entry.usage
    .filter((role) => role.calls > 0 && role.cost_usd === null)
    .map((role) => role.role);
  const known = entry.usage.reduce((sum, role) => sum + (role.cost_usd ?? 0), 0);
  return `total ≥ ${usd(known)} (no price for the ${unknown.join(' and ')} model${unknown.length > 1 ? 's' : ''} in data/prices.json)`;
}

/** One role's calls, tokens and cost: `planner 69 calls (3 cached), 1,234 in / 56 out tokens, $0.0042`. */
export function roleText(role: SummaryEntry['usage'][number]): string {
  const cached = role.cached_calls ? ` (${count(role.cached_calls)} cached)` : '';
  if (role.input_tokens + role.output_tokens === 0 && role.cost_usd === 0)
    return `${role.role} ${count(role.calls)} calls${cached}, no tokens`;
  return `${role.role} ${count(role.calls)} calls${cached}, ${count(role.input_tokens)} in / ${count(role.output_tokens)} out tokens, ${usd(role.cost_usd)}`;
}

function usageLine(entry: SummaryEntry): string {
  const roles = entry.usage.filter((role) => role.calls > 0).map(roleText);
  const extra = [
    totalText(entry),
    ...(entry.cost_per_correct_usd !== null
      ? [`${usd(entry.cost_per_correct_usd)} per correct case`]
      : []),
    `cache hits ${count(entry.cache_hits)}`,
    `retries ${count(entry.retries)}`,
    ...(entry.rate_limited !== null ? [`429s ${count(entry.rate_limited)}`] : []),
  ];
  return `    usage: ${[...(roles.length > 0 ? roles : ['no model calls']), ...extra].join(' · ')}`;
}

function entryLines(entry: SummaryEntry): string[] {
  const outcome = entry.outcomes;
  const lines = [
    `  ${entry.exec ? `${entry.exec.env} · ` : ''}${modelLabel(entry.model)} · judge ${judgeLabel(entry.judge)}${entry.dirs.length === 1 ? `  (${entry.dirs[0]})` : ''}`,
  ];
  if (outcome)
    lines.push(
      `    outcomes: ${count(outcome.judgements)} judged · ${count(outcome.ok)} ok · ${count(outcome.error)} error · ${count(outcome.parse_error)} parse_error · ${count(outcome.judge_error)} judge_error · ${count(outcome.correct)} correct`,
    );
  if (entry.exec) lines.push(...execEntryLines(entry.exec));
  if (entry.top_failures.length > 0)
    lines.push(
      `    top failures: ${entry.top_failures.map((failure) => `${count(failure.count)}× ${failure.reason}`).join(' · ')}`,
    );
  lines.push(usageLine(entry));
  return lines;
}

/** The summary as terminal lines; `width` (a TTY's columns) turns a too-wide headline table into blocks. */
export function formatSummary(summary: EndOfRunSummary, width: number | null = null): string[] {
  const models = summary.entries.length;
  const lines = [
    `apb: ${summary.command} ${summary.status} in ${duration(summary.wall_ms)}${models > 1 ? `: ${models} models` : ''}`,
  ];
  lines.push(...headlineLines(summary.entries, width));
  lines.push(...execTable(summary.entries).map((line) => `  ${line}`));
  for (const entry of summary.entries) lines.push(...entryLines(entry));
  if (
    summary.entries.some((entry) =>
      entry.headline.some(
        (cell) => cell.label === 'Tool-broken Replace' || cell.label === 'Unsolvable pass',
      ),
    )
  ) {
    lines.push(`  note: ${TOTALS_CORRECT_NOTE}`);
  }
  for (const note of summary.notes) lines.push(`  note: ${note}`);
  if (summary.report_html)
    lines.push(
      `  report: ${summary.report_html}${summary.report_md ? ` (and ${summary.report_md})` : ''}`,
    );
  if (summary.view_command) lines.push(`  open it live: ${summary.view_command}`);
  return lines;
}

/** How `--quiet` and `--json` shape what a command prints. */
export interface Display {
  quiet: boolean;
  json: boolean;
  /** The headline a leaderboard is ranked by (`--rank-by`; default holistic CR). */
  rankBy?: HeadlineKey;
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** `--json`: the summary object on stdout; otherwise its text on stderr, unless `--quiet`. */
export function printSummary(display: Display, summary: EndOfRunSummary): void {
  if (display.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (!display.quiet) for (const line of formatSummary(summary, terminalWidth())) say(line);
}
