/** The paginated case list: one page of the filtered judgements, with its count and pager. */
import { $, el, fmt } from './dom.js';
import { applyFilters } from './filters.js';
import { errorText, facetText, gradeText, modelOf } from './labels.js';
import { updateScrollCue } from './scroll-cue.js';
import { applySort, showSort } from './sort.js';
import { data, PAGE, STATUS, STATUS_CLASS, view, writeState } from './store.js';

let openAnswer: (row: number) => void = () => undefined;
/** What a click on a case id does (set at start-up; the case view itself renders the list). */
export function onOpen(handler: (row: number) => void): void {
  openAnswer = handler;
}

function listRow(row: number): HTMLElement {
  const R = data.rows;
  const c = R.c[row]!;
  const status = R.s[row]!;
  const open = el('button', {
    type: 'button',
    className: 'link',
    text: data.cases.id[c],
    'data-row': row,
    onclick: () => openAnswer(row),
  });
  return el('tr', { className: `case-row${row === view.state.open ? ' current' : ''}` }, [
    el('td', {}, [open]),
    el('td', { text: data.splits[data.cases.split[c]!] }),
    el('td', { text: modelOf(row) }),
    data.judges.length > 1 ? el('td', { text: data.judges[R.j[row]!] }) : null,
    el('td', {}, [
      el('span', { className: `badge ${STATUS_CLASS[status]}`, text: STATUS[status] }),
    ]),
    el('td', { className: 'num', text: gradeText(R.g[row]!) }),
    el('td', { text: errorText(R.e[row]!) }),
    el('td', { className: 'wide', text: R.b[row]! >= 0 ? data.behaviors[R.b[row]!] : '' }),
    el('td', { className: 'wide', text: facetText(c) }),
    el('td', { className: 'query wide', text: data.cases.query[c]!.slice(0, 120) }),
  ]);
}

function countText(start: number, end: number): string {
  const { matches } = view;
  let correct = 0;
  for (const row of matches) if (data.rows.s[row] === 0) correct += 1;
  const share = matches.length
    ? ` · ${((100 * correct) / matches.length).toFixed(1)} % correct`
    : '';
  const shown = matches.length ? ` · showing ${fmt(start + 1)}–${fmt(end)}` : '';
  return `${fmt(matches.length)} of ${fmt(data.rows.c.length)} judgements${share}${shown}`;
}

/** Renders the current page of the list and writes the state into the URL. */
export function renderList(): void {
  const body = $('case-list');
  body.replaceChildren();
  const start = view.state.page * PAGE;
  const end = Math.min(view.matches.length, start + PAGE);
  $('case-count').textContent = countText(start, end);
  for (let i = start; i < end; i += 1) body.appendChild(listRow(view.matches[i]!));
  $<HTMLButtonElement>('page-prev').disabled = view.state.page === 0;
  $<HTMLButtonElement>('page-next').disabled = end >= view.matches.length;
  showSort();
  const wrap = body.closest<HTMLElement>('.table-wrap');
  if (wrap) updateScrollCue(wrap);
  writeState();
}

/** Filters, sorts and renders again. */
export function refresh(): void {
  applyFilters();
  applySort();
  renderList();
}
