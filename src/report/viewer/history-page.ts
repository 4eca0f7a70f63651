/**
 * The viewer's history page (pure): the leaderboards and run directories found below the folders
 * `apb view` was given, newest first, each linking to its live report. No script: while a run is
 * going the page refreshes itself every few seconds (a meta refresh), so the CSP allows nothing.
 */
import { escapeHtml } from '../escape.js';
import { REPORT_CSS } from '../html-style.js';
import { count, fixed } from '../numbers.js';
import type { BoardEntry, HistoryEntry } from './history.js';

/** `3m05s`, `42s`, `1h02m`. */
export function etaText(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** "N of M, ETA 3m05s" for a running run, "N judgements" otherwise. */
export function progressText(entry: HistoryEntry): string {
  const unit = entry.kind === 'exec' ? 'executions' : 'judgements';
  if (entry.status !== 'running') return `${count(entry.done)} ${unit}`;
  const of =
    entry.total !== null
      ? `${count(entry.done)} of ${count(entry.total)}`
      : `${count(entry.done)} so far`;
  return `${of}${entry.etaSeconds !== null ? `, ETA ${etaText(entry.etaSeconds)}` : ''}`;
}

const cell = (text: string | null, className = '') =>
  `<td${className ? ` class="${className}"` : ''}>${escapeHtml(text ?? '–')}</td>`;

function runRow(entry: HistoryEntry, index: number, shown: (dir: string) => string): string {
  const headline = !entry.headline
    ? null
    : entry.headline.unit === 'reward'
      ? `${fixed(entry.headline.value, 2)} ${entry.headline.label}`
      : `${fixed(entry.headline.value, 1)} % ${entry.headline.label}`;
  return `<tr class="history-run" data-status="${escapeHtml(entry.status)}" data-kind="${entry.kind ?? 'run'}"><td><a href="runs/${index}/">${escapeHtml(shown(entry.dir))}</a></td>${cell(entry.model)}${cell(entry.judge)}${cell(entry.data)}${cell(entry.created?.replace('T', ' ').slice(0, 16) ?? null)}${cell(entry.status, `status ${entry.status}`)}${cell(progressText(entry), 'num progress')}${cell(headline, 'num')}</tr>`;
}

/** The history page for the boards and runs (runs in the order given; links by index). */
export function renderHistoryPage(
  boards: readonly BoardEntry[],
  runs: readonly HistoryEntry[],
  options: { title: string; shown: (dir: string) => string; refreshSeconds?: number },
): string {
  const order = runs
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) => (b.entry.created ?? '').localeCompare(a.entry.created ?? '') || a.index - b.index,
    );
  const running = runs.some((entry) => entry.status === 'running');
  const boardRows = boards
    .map(
      (board, index) =>
        `<li><a href="boards/${index}/">${escapeHtml(options.shown(board.dir))}</a> — leaderboard of ${board.runs.length} run(s)</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${running ? `<meta http-equiv="refresh" content="${options.refreshSeconds ?? 5}">` : ''}
<title>${escapeHtml(options.title)}</title>
<style>${REPORT_CSS}</style></head>
<body>
<header class="top"><h1>${escapeHtml(options.title)}</h1><span class="note">${count(runs.length)} run(s)${running ? ' · a run is in progress: this page refreshes itself' : ''}</span></header>
<main>
${boards.length > 0 ? `<section id="boards"><h2>Leaderboards</h2><ul>${boardRows}</ul></section>` : ''}
<section id="history"><h2>Runs</h2>
<div class="table-wrap"><div class="scroll"><table class="data history"><thead><tr><th>Run</th><th>Model</th><th>Judge</th><th>Data</th><th>Started (UTC)</th><th>Status</th><th>Progress</th><th>Headline</th></tr></thead>
<tbody>
${order.map(({ entry, index }) => runRow(entry, index, options.shown)).join('\n')}
</tbody></table></div></div>
</section>
</main></body></html>
`;
}
