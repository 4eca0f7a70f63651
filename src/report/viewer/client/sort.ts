/**
 * Sorting the filtered list by any column: dataset order by default, ties kept in dataset order;
 * a header click cycles ascending, descending, back to dataset order.
 */
import { $, el } from './dom.js';
import { data, view } from './store.js';

type Key = (i: number) => string | number;

const SORT_KEYS: Record<string, Key> = {
  case: (i) => data.cases.id[data.rows.c[i]!]!,
  split: (i) => data.cases.split[data.rows.c[i]!]!,
  model: (i) => data.models[data.rows.m[i]!]!,
  judge: (i) => data.judges[data.rows.j[i]!]!,
  outcome: (i) => data.rows.s[i]!,
  grade: (i) => data.rows.g[i]!,
  errors: (i) => {
    const bits = data.rows.e[i]!;
    let n = 0;
    for (let k = 0; k < 6; k += 1) if (bits & (1 << k)) n += 1;
    return n * 64 + bits;
  },
  behavior: (i) => data.rows.b[i]!,
  facet: (i) => {
    const c = data.rows.c[i]!;
    return data.cases.level[c]! * 1000 + data.cases.horizon[c]! * 10 + data.cases.stage[c]!;
  },
  query: (i) => data.cases.query[data.rows.c[i]!]!,
};

const collator =
  typeof Intl !== 'undefined'
    ? new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
    : null;

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (collator) return collator.compare(String(a), String(b));
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Sorts `view.matches` by the state's column (stable: ties in dataset order). */
export function applySort(): void {
  const key = SORT_KEYS[view.state.sort];
  if (!key) return;
  const sign = view.state.dir === 'desc' ? -1 : 1;
  const values = new Map<number, string | number>();
  for (const i of view.matches) values.set(i, key(i));
  view.matches.sort((a, b) => sign * compareValues(values.get(a)!, values.get(b)!) || a - b);
}

/** Turns each sortable header into a button that cycles its column's order. */
export function setupSort(refresh: () => void): void {
  const { state } = view;
  document.querySelectorAll<HTMLElement>('th[data-sort]').forEach((th) => {
    const label = th.textContent ?? '';
    const button = el('button', {
      type: 'button',
      className: 'sort',
      text: label,
      title: `sort by ${label.toLowerCase()}`,
    });
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const key = th.getAttribute('data-sort') ?? '';
      if (state.sort !== key) {
        state.sort = key;
        state.dir = 'asc';
      } else if (state.dir === 'asc') state.dir = 'desc';
      else {
        state.sort = '';
        state.dir = '';
      }
      state.page = 0;
      refresh();
    });
  });
}

/** Marks the sorted header (aria-sort) and says the order above the list. */
export function showSort(): void {
  const { state } = view;
  document.querySelectorAll('th[data-sort]').forEach((th) => {
    const on = th.getAttribute('data-sort') === state.sort;
    const order = state.dir === 'desc' ? 'descending' : 'ascending';
    th.setAttribute('aria-sort', on ? order : 'none');
  });
  $('sort-note').textContent = state.sort
    ? `sorted by ${state.sort}${state.dir === 'desc' ? ' (descending)' : ''} · `
    : 'in dataset order · ';
}
