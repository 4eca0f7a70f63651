/** HTML tables of the report: every table in a horizontal scroller with a "more columns" cue. */
import { escapeHtml } from './escape.js';
import { formatCell, type TableView } from './table-views.js';

/** Column kinds shown right-aligned. */
export const NUMERIC = new Set([
  'rate',
  'grade',
  'delta',
  'grade-delta',
  'count',
  'p',
  'usd',
  'ms',
  'rate-ci',
]);

/** A table in a horizontal scroller, with a cue the page shows while columns are hidden to the right. */
export function scrollTable(tableHtml: string): string {
  return `<div class="table-wrap"><div class="scroll">${tableHtml}</div><div class="scroll-cue" aria-hidden="true"><span>more columns →</span></div></div>`;
}

/** A table from a header and rows of formatted cells (numeric columns right-aligned). */
export function table(header: string[], rows: string[][], numeric: boolean[] = []): string {
  const head = `<tr>${header.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, index) => `<td${numeric[index] ? ' class="num"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return scrollTable(
    `<table class="data"><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`,
  );
}

/**
 * A table of escaped cells in a plain scroller, without the "more columns" cue or numeric
 * alignment: the exec report's tables and its case browser's reward breakdown.
 */
export function plainTable(header: readonly string[], rows: readonly string[][]): string {
  const head = header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  const table = `<thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
  return `<div class="scroll"><table class="data">${table}</table></div>`;
}

/** A table view with its title and description. */
export function viewHtml(view: TableView): string {
  const rows = view.rows.map((row) =>
    view.columns.map((column) => formatCell(column, column.get(row))),
  );
  return [
    `<h3 id="${escapeHtml(view.id)}">${escapeHtml(view.title)}</h3>`,
    view.description ? `<p class="desc">${escapeHtml(view.description)}</p>` : '',
    table(
      view.columns.map((column) => column.label),
      rows,
      view.columns.map((column) => NUMERIC.has(column.kind)),
    ),
  ].join('\n');
}
