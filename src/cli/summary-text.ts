/**
 * The end-of-run summary in the terminal: a headline table (one row per model and judge, n beside
 * every number), then per model its outcomes, top failure reasons and usage, then where the report
 * is and how to open it. Model ids and reasons are untrusted text: `say` strips control characters.
 */
import { count, fixed, interval, usd } from '../report/numbers.js';
import type { EndOfRunSummary, SummaryEntry } from '../report/run-summary.js';
import { judgeLabel, modelLabel } from '../report/labels.js';
import { TOTALS_CORRECT_NOTE } from '../report/scorecard.js';

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
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const render = (row: readonly string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  return [render(header), ...rows.map(render)];
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
  return textTable([several ? 'model · judge' : `model (judge ${judgeLabel(entries[0]!.judge)})`, ...labels.map((label) => `${label} %`)], rows);
}

/** The total cost; with a role whose price is unknown, what is known as a lower bound and which roles lack a price. */
function totalText(entry: SummaryEntry): string {
  if (entry.cost_usd !== null) return `total ${usd(entry.cost_usd)}`;
  const unknown = entry.usage.filter((role) => role.calls > 0 && role.cost_usd === null).map((role) => role.role);
  const known = entry.usage.reduce((sum, role) => sum + (role.cost_usd ?? 0), 0);
  return `total ≥ ${usd(known)} (no price for the ${unknown.join(' and ')} model${unknown.length > 1 ? 's' : ''} in data/prices.json)`;
}

function roleText(role: SummaryEntry['usage'][number]): string {
  const cached = role.cached_calls ? ` (${count(role.cached_calls)} cached)` : '';
  if (role.input_tokens + role.output_tokens === 0 && role.cost_usd === 0) return `${role.role} ${count(role.calls)} calls${cached}, no tokens`;
  return `${role.role} ${count(role.calls)} calls${cached}, ${count(role.input_tokens)} in / ${count(role.output_tokens)} out tokens, ${usd(role.cost_usd)}`;
}

function usageLine(entry: SummaryEntry): string {
  const roles = entry.usage.filter((role) => role.calls > 0).map(roleText);
  const extra = [totalText(entry), ...(entry.cost_per_correct_usd !== null ? [`${usd(entry.cost_per_correct_usd)} per correct case`] : []), `cache hits ${count(entry.cache_hits)}`, `retries ${count(entry.retries)}`, ...(entry.rate_limited !== null ? [`429s ${count(entry.rate_limited)}`] : [])];
  return `    usage: ${[...(roles.length > 0 ? roles : ['no model calls']), ...extra].join(' · ')}`;
}

function entryLines(entry: SummaryEntry): string[] {
  const outcome = entry.outcomes;
  const lines = [
    `  ${modelLabel(entry.model)} · judge ${judgeLabel(entry.judge)}${entry.dirs.length === 1 ? `  (${entry.dirs[0]})` : ''}`,
    `    outcomes: ${count(outcome.judgements)} judged · ${count(outcome.ok)} ok · ${count(outcome.error)} error · ${count(outcome.parse_error)} parse_error · ${count(outcome.judge_error)} judge_error · ${count(outcome.correct)} correct`,
  ];
  if (entry.top_failures.length > 0) lines.push(`    top failures: ${entry.top_failures.map((failure) => `${count(failure.count)}× ${failure.reason}`).join(' · ')}`);
  lines.push(usageLine(entry));
  return lines;
}

/** The summary as terminal lines. */
export function formatSummary(summary: EndOfRunSummary): string[] {
  const models = summary.entries.length;
  const lines = [`apb: ${summary.command} ${summary.status} in ${duration(summary.wall_ms)}${models > 1 ? `: ${models} models` : ''}`];
  lines.push(...headlineTable(summary.entries).map((line) => `  ${line}`));
  for (const entry of summary.entries) lines.push(...entryLines(entry));
  if (summary.entries.some((entry) => entry.headline.some((cell) => cell.label === 'Tool-broken Replace' || cell.label === 'Unsolvable pass'))) {
    lines.push(`  note: ${TOTALS_CORRECT_NOTE}`);
  }
  for (const note of summary.notes) lines.push(`  note: ${note}`);
  if (summary.report_html) lines.push(`  report: ${summary.report_html}${summary.report_md ? ` (and ${summary.report_md})` : ''}`);
  if (summary.view_command) lines.push(`  open it live: ${summary.view_command}`);
  return lines;
}
