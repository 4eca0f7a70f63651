/** `ReportData` → a Markdown report: runs and caveats, Tables 1 and 2 first, then 12–18, 4, 5, error incidence, paired comparisons, paper comparison. */
import { describeClass } from './comparability.js';
import { judgeLabel, modelLabel } from './labels.js';
import { escapeMarkdownHtml } from './escape.js';
import { judgeSectionViews, type SectionView } from './judge-views.js';
import { count, fixed } from './numbers.js';
import type { PaperComparison } from './paper.js';
import { PAPER_HEADER, paperCellTexts } from './paper-views.js';
import { describeDataset, describeSource, type ReportData } from './report-data.js';
import { headlineViews } from './headline-views.js';
import { TOTALS_CORRECT_NOTE } from './scorecard.js';
import { formatCell, tableViews, type TableView } from './table-views.js';

/** Text safe inside a Markdown table cell: HTML-escaped, pipes escaped, on one line. */
export function markdownCell(value: string): string {
  return escapeMarkdownHtml(value)
    .replace(/\|/g, '\\|')
    .replace(/\s*[\r\n]+\s*/g, ' ');
}

/** A Markdown table from a header and rows of already formatted cells. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

function viewMarkdown(view: TableView): string {
  const rows = view.rows.map((row) =>
    view.columns.map((column) => formatCell(column, column.get(row))),
  );
  return [
    `### ${view.title}`,
    view.description ? `\n${view.description}\n` : '',
    markdownTable(
      view.columns.map((column) => column.label),
      rows,
    ),
  ].join('\n');
}

function runsSection(data: ReportData): string {
  const rows = data.runs.map((run) => [
    run.dir,
    describeSource(run),
    describeDataset(run),
    run.models.join(', '),
    run.judges.join(', '),
    count(run.judgements),
    count(run.issues.length),
  ]);
  return [
    '## Runs',
    '',
    markdownTable(
      ['Run', 'Source', 'Dataset', 'Models', 'Judges', 'Judgements', 'Unreadable lines'],
      rows,
    ),
  ].join('\n');
}

function comparabilitySection(data: ReportData): string {
  if (data.comparability.comparable) return '';
  const rows = data.comparability.classes.map((entry) => [
    entry.tag,
    entry.models.join(', '),
    describeClass(entry),
  ]);
  return [
    '',
    '**Not directly comparable.** Rows of different sets differ in judge, dataset, protocol, or prompt versions on a split they share:',
    '',
    markdownTable(['Set', 'Models', 'What the set shares'], rows),
  ].join('\n');
}

function totalsSection(data: ReportData): string {
  const tagged = !data.comparability.comparable;
  const rows = data.groups.map((group) => [
    modelLabel(group.model),
    judgeLabel(group.judge),
    ...(tagged ? [group.tag] : []),
    count(group.n),
    count(group.correct),
    count(group.errors),
    count(group.parse_errors),
    count(group.judge_errors),
  ]);
  const header = [
    'Model',
    'Judge',
    ...(tagged ? ['Set'] : []),
    'Judgements',
    'Correct',
    'Planner errors',
    'Parse errors',
    'Judge errors',
  ];
  return [
    '## Totals',
    '',
    `Every table counts every case: planner errors, unreadable answers and judge errors count as not correct and are shown beside each table. ${TOTALS_CORRECT_NOTE}`,
    '',
    markdownTable(header, rows),
  ].join('\n');
}

/** The paper comparison as Markdown: caveats first, then per model every cell with both verdicts. */
export function paperMarkdown(paper: PaperComparison): string {
  const parts = [
    '## Compared with the paper',
    '',
    `Source: ${markdownCell(paper.source)}. A note names a known inconsistency of the paper (data/paper-tables.json).`,
  ];
  parts.push('', ...paper.caveats.map((caveat) => `- ⚠ ${markdownCell(caveat)}`));
  for (const model of paper.models) {
    parts.push(
      '',
      `### ${markdownCell(model.model)} (judge ${markdownCell(model.judge)}) ≈ paper's ${markdownCell(model.paperModel)}`,
      '',
    );
    for (const caveat of model.caveats) parts.push(`- ⚠ ${markdownCell(caveat)}`);
    parts.push(
      `${model.matched} cell(s) match exactly, ${model.mismatched} differ, ${model.explained} differ where the paper is inconsistent; ${model.withinCi} of ${model.withCi} printed rates lie inside our 95 % interval.`,
      '',
    );
    parts.push(markdownTable(PAPER_HEADER, model.cells.map(paperCellTexts)));
  }
  if (paper.unmatched.length > 0)
    parts.push(
      '',
      `Models the paper does not report: ${paper.unmatched.map(markdownCell).join(', ')}.`,
    );
  return parts.join('\n');
}

/** A judge-diagnostics section as Markdown, under a heading of `level` hashes. */
export function sectionMarkdown(view: SectionView, level = 2): string {
  const parts = [`${'#'.repeat(level)} ${markdownCell(view.title)}`];
  for (const paragraph of view.paragraphs) parts.push('', markdownCell(paragraph));
  for (const table of view.tables) parts.push('', markdownTable(table.header, table.rows));
  return parts.join('\n');
}

/** Renders the whole report as Markdown. */
export function renderMarkdown(data: ReportData): string {
  const parts = [`# ${markdownCell(data.title)}`];
  if (data.generatedAt) parts.push('', `Generated ${markdownCell(data.generatedAt)}.`);
  for (const banner of data.banners) parts.push('', `> **⚠ ${markdownCell(banner)}**`);
  if (data.notes.length > 0)
    parts.push('', ...data.notes.map((note) => `- ⚠ ${markdownCell(note)}`));
  for (const view of headlineViews(data))
    parts.push('', viewMarkdown(view).replace(/^### /, '## '));
  parts.push('', runsSection(data));
  parts.push(
    comparabilitySection(data),
    '',
    totalsSection(data),
    '',
    '## Tables',
    '',
    `Intervals: ${data.ciMethod} Rates are percentages, grades 0–1.`,
  );
  const views = tableViews(data);
  if (views.length === 0) parts.push('', 'No judgements to tabulate.');
  for (const view of views) parts.push('', viewMarkdown(view));
  for (const { dir, sections } of data.judgeSections) {
    for (const view of judgeSectionViews(sections))
      parts.push(
        '',
        sectionMarkdown(
          { ...view, title: data.judgeSections.length > 1 ? `${view.title}: ${dir}` : view.title },
          2,
        ),
      );
  }
  if (data.paper) parts.push('', paperMarkdown(data.paper));
  parts.push('', 'Metric definitions and every denominator choice: docs/metrics.md.', '');
  return parts.join('\n');
}
