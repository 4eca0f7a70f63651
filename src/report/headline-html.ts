/**
 * The top of the HTML page: a banner per run that did not finish, the caveats, the scorecard (each
 * headline number stacked over its interval and n, so the five fit at 1,366 px; ranked, sortable
 * by any column), a headline chart for a leaderboard, then usage and cost and the endpoints.
 */
import { escapeHtml } from './escape.js';
import { headlineViews, LABELS, presentHeadlines } from './headline-views.js';
import { headlineChart } from './headline-chart.js';
import { viewHtml } from './html-table.js';
import { judgeLabel, modelLabel } from './labels.js';
import { fixed, interval } from './numbers.js';
import type { ReportData } from './report-data.js';
import { groupKey } from './comparability.js';
import type { HeadlineCell, HeadlineKey, ScorecardRow } from './scorecard.js';

const SHORT = (key: HeadlineKey) => LABELS[key].replace(' %', '');

function headlineCell(cell: HeadlineCell | undefined): string {
  if (!cell || cell.n === 0 || cell.value === null)
    return `<td class="num headline" data-v="">–${cell && cell.n > 0 ? `<span class="hci">n ${cell.n}</span>` : ''}</td>`;
  return `<td class="num headline" data-v="${cell.value}"><span class="hv">${fixed(cell.value, 1)} %</span><span class="hci">${interval(cell.ci, 1)} · n ${cell.n}</span></td>`;
}

function scorecardRow(data: ReportData, row: ScorecardRow, keys: readonly HeadlineKey[]): string {
  const tagged = !data.comparability.comparable;
  const mark = row.unfinished
    ? ` <span class="badge fail" title="a run of this row did not finish">${escapeHtml(row.unfinished)}</span>`
    : '';
  const cells = [
    `<td class="num" data-v="${row.rank ?? ''}">${row.rank ?? '–'}</td>`,
    `<td data-v="${escapeHtml(row.model)}">${escapeHtml(modelLabel(row.model))}${mark}</td>`,
    `<td data-v="${escapeHtml(row.judge)}">${escapeHtml(judgeLabel(row.judge))}</td>`,
    tagged
      ? `<td>${escapeHtml(data.comparability.tags[groupKey(row.model, row.judge)] ?? '–')}</td>`
      : '',
    ...keys.map((key) => headlineCell(row.cells.find((cell) => cell.key === key))),
  ];
  return `<tr${row.unfinished ? ' class="unfinished"' : ''}>${cells.join('')}</tr>`;
}

/** The scorecard as a sortable table of stacked cells (the Markdown and CSV formats keep the plain view). */
function scorecardHtml(data: ReportData, description: string): string {
  const keys = presentHeadlines(data);
  const heads = [
    '#',
    'Model',
    'Judge',
    ...(data.comparability.comparable ? [] : ['Set']),
    ...keys.map(SHORT),
  ];
  const head = heads
    .map((label, index) => {
      const ranked =
        index >= heads.length - keys.length &&
        keys[index - (heads.length - keys.length)] === data.rankBy;
      return `<th scope="col" data-col="${index}"${ranked ? ' class="ranked"' : ''}>${escapeHtml(label)}</th>`;
    })
    .join('');
  const body = data.scorecard.map((row) => scorecardRow(data, row, keys)).join('\n');
  const chart = data.scorecard.length > 1 ? headlineChart(data, SHORT(data.rankBy)) : '';
  return `<section id="scorecard"><h2>Scorecard</h2><p class="desc">${escapeHtml(description)}</p>
<div class="table-wrap"><div class="scroll"><table class="data scorecard sortable"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div><div class="scroll-cue" aria-hidden="true"><span>more columns →</span></div></div>${chart}</section>`;
}

/** The top of the page: banners, warnings, the scorecard, usage and cost, and the endpoints. */
export function headlineHtml(data: ReportData): { html: string; nav: string[] } {
  const banners = data.banners
    .map((text) => `<p class="banner" role="alert">⚠ ${escapeHtml(text)}</p>`)
    .join('\n');
  const notes = data.notes
    .map((note) => `<p class="warning" role="note">⚠ ${escapeHtml(note)}</p>`)
    .join('\n');
  const views = headlineViews(data);
  const sections = views.map((view) => {
    if (view.id === 'scorecard') return scorecardHtml(data, view.description);
    const inner = viewHtml(view).replace(/^<h3 id="[^"]*">(.*?)<\/h3>/, '<h2>$1</h2>');
    return `<section id="${escapeHtml(view.id)}">${inner}</section>`;
  });
  const nav = views
    .filter((view) => view.id !== 'endpoints')
    .map(
      (view) =>
        `<a href="#${escapeHtml(view.id)}">${escapeHtml(view.id === 'usage' ? 'Usage' : view.title)}</a>`,
    );
  return {
    html: [
      banners ? `<div class="banners">${banners}</div>` : '',
      notes ? `<div class="notes">${notes}</div>` : '',
      ...sections,
    ].join('\n'),
    nav,
  };
}
