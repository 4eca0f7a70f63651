/**
 * Sortable report tables (`table.sortable`, the scorecard): a header click sorts the rows by that
 * column's `data-v` values — numbers from the highest first, text A to Z, empty cells last; a
 * second click reverses, a third restores the page's order (the ranking).
 */
import { el } from './dom.js';

type Order = 'first' | 'reversed' | 'none';

function cellValue(row: HTMLTableRowElement, col: number): string {
  return row.cells[col]?.getAttribute('data-v') ?? row.cells[col]?.textContent ?? '';
}

function sortRows(
  body: HTMLTableSectionElement,
  rows: HTMLTableRowElement[],
  col: number,
  order: Order,
): void {
  const sorted = rows.slice();
  if (order !== 'none') {
    const numeric = isNumericColumn(rows, col);
    const sign = order === 'first' ? 1 : -1;
    sorted.sort((a, b) => {
      const x = cellValue(a, col);
      const y = cellValue(b, col);
      if (x === '' || y === '') return (x === '' ? 1 : 0) - (y === '' ? 1 : 0);
      const diff = numeric ? Number(y) - Number(x) : x.localeCompare(y);
      return sign * diff;
    });
  }
  body.replaceChildren(...sorted);
}

/** Makes every `table.sortable` sortable by its headers. */
export function setupTableSort(): void {
  document.querySelectorAll<HTMLTableElement>('table.sortable').forEach((table) => {
    const body = table.tBodies[0];
    if (!body) return;
    const original = Array.from(body.rows);
    let current = { col: -1, order: 'none' as Order };
    table.querySelectorAll<HTMLTableCellElement>('thead th').forEach((th, col) => {
      const label = th.textContent ?? '';
      const button = el('button', {
        type: 'button',
        className: 'sort',
        text: label,
        title: `sort by ${label}`,
      });
      th.replaceChildren(button);
      th.setAttribute('aria-sort', 'none');
      button.addEventListener('click', () => {
        const order: Order =
          current.col !== col
            ? 'first'
            : current.order === 'first'
              ? 'reversed'
              : current.order === 'reversed'
                ? 'none'
                : 'first';
        current = { col, order };
        sortRows(body, original, col, order);
        table.querySelectorAll('thead th').forEach((other, index) => {
          const on = index === col && order !== 'none';
          other.setAttribute(
            'aria-sort',
            on
              ? (order === 'first') === isNumericColumn(original, col)
                ? 'descending'
                : 'ascending'
              : 'none',
          );
        });
      });
    });
  });
}

function isNumericColumn(rows: HTMLTableRowElement[], col: number): boolean {
  return rows.every(
    (row) => cellValue(row, col) === '' || Number.isFinite(Number(cellValue(row, col))),
  );
}
