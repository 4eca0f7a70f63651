/**
 * `ReportData` → ONE self-contained HTML file: runs and caveats, the tables, the figures (inline
 * SVG), the paper comparison and the case browser. No external request of any kind: a CSP allows
 * only the inline script (by hash), inline styles and data: images. Data is escaped or embedded inertly.
 */
import { judgeSectionViews } from './judge-views.js';
import { judgeLabel, modelLabel } from './labels.js';
import { describeClass } from './comparability.js';
import { PAPER_HEADER, paperCellTexts } from './paper-views.js';
import { escapeHtml } from './escape.js';
import { renderFigures } from './figures/figures.js';
import { casePayloadParts, jsonScript } from './html-payload.js';
import { REPORT_CSS } from './html-style.js';
import { count } from './numbers.js';
import { describeDataset, describeSource, type ReportData } from './report-data.js';
import { TOTALS_CORRECT_NOTE } from './scorecard.js';
import { tableViews } from './table-views.js';
import { headlineHtml } from './headline-html.js';
import { scrollTable, table, viewHtml } from './html-table.js';
import { CLIENT_SCRIPT, CLIENT_SCRIPT_SHA256 } from './viewer/client-bundle.js';

/** Options of `renderHtml`: `live` turns the page into the viewer's (polls `statusUrl` for new judgements). */
export interface HtmlOptions {
  live?: { statusUrl: string; version: string; intervalMs?: number; historyUrl?: string };
}

function runsHtml(data: ReportData): string {
  const rows = data.runs.map((run) => [
    run.dir,
    describeSource(run),
    describeDataset(run),
    run.models.join(', '),
    run.judges.join(', '),
    count(run.judgements),
    count(run.issues.length),
  ]);
  const classes = data.comparability.comparable
    ? ''
    : `<p><strong>Not directly comparable:</strong> rows of different sets differ in judge, dataset, protocol, or prompt versions on a split they share.</p>${table(
        ['Set', 'Models', 'What the set shares'],
        data.comparability.classes.map((entry) => [
          entry.tag,
          entry.models.join(', '),
          describeClass(entry),
        ]),
      )}`;
  const tagged = !data.comparability.comparable;
  const totals = table(
    [
      'Model',
      'Judge',
      ...(tagged ? ['Set'] : []),
      'Judgements',
      'Correct',
      'Planner errors',
      'Parse errors',
      'Judge errors',
    ],
    data.groups.map((group) => [
      modelLabel(group.model),
      judgeLabel(group.judge),
      ...(tagged ? [group.tag] : []),
      count(group.n),
      count(group.correct),
      count(group.errors),
      count(group.parse_errors),
      count(group.judge_errors),
    ]),
    [false, false, ...(tagged ? [false] : []), true, true, true, true, true],
  );
  return [
    '<section id="runs"><h2>Runs</h2>',
    table(
      ['Run', 'Source', 'Dataset', 'Models', 'Judges', 'Judgements', 'Unreadable lines'],
      rows,
      [false, false, false, false, false, true, true],
    ),
    classes,
    `<h3>Totals</h3><p class="desc">Every table counts every case: planner errors, unreadable answers and judge errors count as not correct and are shown beside each table. ${escapeHtml(TOTALS_CORRECT_NOTE)}</p>`,
    totals,
    '</section>',
  ].join('\n');
}

/** The navigation: one link per section the page has. */
function navHtml(
  data: ReportData,
  headline: string[],
  hasFigures: boolean,
  hasJudges: boolean,
): string {
  const links = [
    ...headline,
    '<a href="#runs">Runs</a>',
    '<a href="#tables">Tables</a>',
    hasFigures ? '<a href="#figures">Figures</a>' : '',
    hasJudges ? '<a href="#judges">Judges</a>' : '',
    data.paper ? '<a href="#paper">Paper</a>' : '',
    '<a href="#cases">Cases</a>',
  ];
  return `<nav>${links.join('')}</nav>`;
}

/** The judge diagnostics of every run that has them (agreement between judges, contradictions with the checks). */
function judgeSectionsHtml(data: ReportData): string {
  const parts: string[] = [];
  for (const { dir, sections } of data.judgeSections) {
    for (const view of judgeSectionViews(sections)) {
      parts.push(
        `<h3>${escapeHtml(data.judgeSections.length > 1 ? `${view.title}: ${dir}` : view.title)}</h3>`,
        ...view.paragraphs.map((text) => `<p class="desc">${escapeHtml(text)}</p>`),
        ...view.tables.map((entry) => table(entry.header, entry.rows)),
      );
    }
  }
  return parts.length > 0
    ? `<section id="judges"><h2>Judges</h2>\n${parts.join('\n')}\n</section>`
    : '';
}

function paperHtml(data: ReportData): string {
  if (!data.paper) return '';
  const warn = (caveat: string) => `<p class="warning" role="note">⚠ ${escapeHtml(caveat)}</p>`;
  const parts = [
    '<section id="paper"><h2>Compared with the paper</h2>',
    `<p class="desc">Source: ${escapeHtml(data.paper.source)}. A note names a known inconsistency of the paper.</p>`,
    ...data.paper.caveats.map(warn),
  ];
  for (const model of data.paper.models) {
    parts.push(
      `<h3>${escapeHtml(model.model)} (judge ${escapeHtml(model.judge)}) ≈ ${escapeHtml(model.paperModel)}</h3>`,
      ...model.caveats.map(warn),
    );
    parts.push(
      `<p class="desc">${model.matched} match exactly, ${model.mismatched} differ, ${model.explained} differ where the paper is inconsistent; ${model.withinCi} of ${model.withCi} printed rates lie inside our 95 % interval.</p>`,
    );
    const rows = model.cells.map(
      (cell) =>
        `<tr${cell.matches || cell.withinCi ? '' : ' class="mismatch"'}>${paperCellTexts(cell)
          .map((text) => `<td>${escapeHtml(text)}</td>`)
          .join('')}</tr>`,
    );
    parts.push(
      scrollTable(
        `<table class="data"><thead><tr>${PAPER_HEADER.map((title) => `<th>${escapeHtml(title)}</th>`).join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
      ),
    );
  }
  if (data.paper.unmatched.length > 0)
    parts.push(
      `<p class="desc">Models the paper does not report: ${escapeHtml(data.paper.unmatched.join(', '))}.</p>`,
    );
  parts.push('</section>');
  return parts.join('\n');
}

function figuresHtml(data: ReportData): string {
  const figures = renderFigures(data.tables);
  if (figures.length === 0) return '';
  return [
    '<section id="figures"><h2>Figures</h2>',
    ...figures.map(
      (figure) =>
        `<figure id="${escapeHtml(figure.id)}">${figure.svg}<figcaption>${escapeHtml(figure.caption)}</figcaption></figure>`,
    ),
    '</section>',
  ].join('\n');
}

const FILTERS = [
  ['split', 'Split'],
  ['model', 'Model'],
  ['judge', 'Judge'],
  ['outcome', 'Outcome'],
  ['error', 'Error'],
  ['behavior', 'Behaviour'],
  ['level', 'Distractors'],
] as const;

/** The case list's columns: sort key, header, and whether it hides while a case is open beside the list. */
const CASE_COLUMNS: readonly (readonly [string, string, boolean])[] = [
  ['case', 'Case', false],
  ['split', 'Split', false],
  ['model', 'Model', false],
  ['judge', 'Judge', false],
  ['outcome', 'Outcome', false],
  ['grade', 'Grade', false],
  ['errors', 'Errors', false],
  ['behavior', 'Behaviour', true],
  ['facet', 'Facet', true],
  ['query', 'Query', true],
];

function caseBrowserHtml(data: ReportData): string {
  const filters = FILTERS.map(
    ([key, label]) =>
      `<label id="filter-${key}-label">${label} <select id="filter-${key}"></select></label>`,
  ).join('\n');
  return `<section id="cases"><h2>Cases</h2>
<p id="case-browser-empty" class="note"${data.cases ? ' hidden' : ''}>This report was built without case data.</p>
<div id="case-browser"${data.cases ? '' : ' hidden'}>
<div class="filters">${filters}
<label>Search <input id="filter-search" type="search" placeholder="case id or query"></label></div>
<div class="list-tools"><span id="sort-note"></span><span id="case-count" aria-live="polite"></span>
<span class="export">export the filtered list: <button type="button" id="export-csv">CSV</button> <button type="button" id="export-jsonl">JSONL</button></span></div>
<div id="browser-panes" class="browser-panes"><div class="list-pane">
<div class="pager"><button type="button" id="page-prev">← previous</button><button type="button" id="page-next">next →</button></div>
${scrollTable(`<table class="data cases"><thead><tr>${CASE_COLUMNS.map(([key, label, wide]) => `<th data-sort="${key}"${key === 'judge' ? ' id="col-judge"' : ''}${wide ? ' class="wide"' : ''}>${label}</th>`).join('')}</tr></thead><tbody id="case-list"></tbody></table>`)}
</div>
<section id="case-view" hidden aria-live="polite"><header><h3 id="case-title"></h3>
<label>Side by side: <select id="compare-select"></select></label><button type="button" id="case-close">close</button></header>
<div id="case-body"></div></section>
</div>
</div></section>`;
}

function contentSecurityPolicy(live: boolean): string {
  const hash = CLIENT_SCRIPT_SHA256;
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; connect-src ${live ? "'self'" : "'none'"}; base-uri 'none'; form-action 'none'`;
}

/**
 * The report page in pieces, in order: everything before the case data, each block of case data
 * (made and compressed one chunk at a time), and the end. A writer streams them to a file, so the
 * whole page is never one string in memory; `renderHtml` joins them.
 */
export function* renderHtmlParts(data: ReportData, options: HtmlOptions = {}): Generator<string> {
  const views = tableViews(data);
  const live = options.live ?? null;
  const headline = headlineHtml(data);
  const figures = figuresHtml(data);
  const judges = judgeSectionsHtml(data);
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(Boolean(live)))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(data.title)}</title>
<style>${REPORT_CSS}</style></head>
<body>
<div id="live-banner" hidden>${live?.historyUrl ? `<a id="live-history" href="${escapeHtml(live.historyUrl)}">← all runs</a>` : ''}<span id="live-status">Live</span><button type="button" id="live-update" hidden>Update</button><label><input type="checkbox" id="live-auto"> update automatically</label></div>
<header class="top"><h1>${escapeHtml(data.title)}</h1>${navHtml(data, headline.nav, figures !== '', judges !== '')}${data.generatedAt ? `<span class="note">generated ${escapeHtml(data.generatedAt)}</span>` : ''}</header>
<main>
${headline.html}
${runsHtml(data)}
<section id="tables"><h2>Tables</h2><p class="desc">${escapeHtml(data.ciMethod)} Rates are percentages, grades 0–1. Definitions: docs/metrics.md.</p>
${views.length > 0 ? views.map(viewHtml).join('\n') : '<p class="note">No judgements to tabulate.</p>'}
</section>
${figures}
${judges}
${paperHtml(data)}
${caseBrowserHtml(data)}
</main>
${jsonScript('apb-config', { live })}
`;
  if (data.cases) for (const part of casePayloadParts(data.cases)) yield `${part}\n`;
  else yield '\n';
  yield `<script>${CLIENT_SCRIPT}</script>
</body></html>
`;
}

/** Renders the report as one self-contained HTML page. */
export function renderHtml(data: ReportData, options: HtmlOptions = {}): string {
  return [...renderHtmlParts(data, options)].join('');
}
