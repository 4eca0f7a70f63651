/** The filter bar: its choices from the index, and the scan over the compact columns it drives. */
import { $, options } from './dom.js';
import { data, FILTER_KEYS, PAGE, view } from './store.js';

type Entry = readonly [string, string];

function distinct(values: readonly number[]): number[] {
  return Array.from(new Set(values)).sort((a, b) => a - b);
}

function fillChoices(): void {
  const { state } = view;
  const R = data.rows;
  const C = data.cases;
  const all = (label: string): Entry[] => [['', label]];
  const select = (id: string) => $<HTMLSelectElement>(`filter-${id}`);
  const splits = distinct(C.split).map((s): Entry => [String(s), data.splits[s]!]);
  options(select('split'), all('all splits').concat(splits), state.split);
  const models = data.models.map((m, i): Entry => [String(i), m]);
  options(select('model'), all('all models').concat(models), state.model);
  const judges = data.judges.map((j, i): Entry => [String(i), j]);
  options(select('judge'), all('all judges').concat(judges), state.judge);
  $('filter-judge-label').hidden = data.judges.length < 2;
  const outcomes: Entry[] = [
    ...([
      ['', 'any outcome'],
      ['0', 'correct'],
      ['1', 'incorrect'],
      ['fail', 'any failure'],
    ] as const),
    ...([
      ['2', 'planner error'],
      ['3', 'parse error'],
      ['4', 'judge error'],
    ] as const),
  ];
  options(select('outcome'), outcomes, state.outcome);
  const flags = [1, 2, 3, 4, 5, 6].map((k): Entry => [String(k), `E${k}`]);
  options(
    select('error'),
    all('any errors').concat([['none', 'no error flag']], flags),
    state.error,
  );
  const behaviors = distinct(R.b.filter((b) => b >= 0)).map((b): Entry => [
    String(b),
    data.behaviors[b]!,
  ]);
  options(select('behavior'), all('any behaviour').concat(behaviors), state.behavior);
  const levels = distinct(C.level.filter((l) => l >= 0)).map((l): Entry => [
    String(l),
    `${l} distractors`,
  ]);
  options(select('level'), all('any level').concat(levels), state.level);
}

/** Fills the filter bar and wires it (and the pager) to `refresh` / `renderList`. */
export function setupFilters(refresh: () => void, renderList: () => void): void {
  const { state } = view;
  fillChoices();
  const search = $<HTMLInputElement>('filter-search');
  search.value = state.q;
  for (const key of FILTER_KEYS) {
    $<HTMLSelectElement>(`filter-${key}`).addEventListener('change', (event) => {
      state[key] = (event.target as HTMLSelectElement).value;
      state.page = 0;
      refresh();
    });
  }
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      state.q = search.value.trim();
      state.page = 0;
      refresh();
    }, 150);
  });
  $('page-prev').addEventListener('click', () => {
    if (state.page > 0) {
      state.page -= 1;
      renderList();
    }
  });
  $('page-next').addEventListener('click', () => {
    if ((state.page + 1) * PAGE < view.matches.length) {
      state.page += 1;
      renderList();
    }
  });
}

let searchText: string[] | null = null;

/** Whether judgement `i` passes every filter but the search. */
function passes(i: number, f: ReturnType<typeof parsedFilters>): boolean {
  const R = data.rows;
  const c = R.c[i]!;
  if (f.split >= 0 && data.cases.split[c] !== f.split) return false;
  if (f.model >= 0 && R.m[i] !== f.model) return false;
  if (f.judge >= 0 && R.j[i] !== f.judge) return false;
  if (f.outcome === 'fail') {
    if (R.s[i]! < 2) return false;
  } else if (f.outcome !== '' && R.s[i] !== Number(f.outcome)) return false;
  if (f.error === 'none') {
    if (R.e[i] !== 0) return false;
  } else if (f.bit && !(R.e[i]! & f.bit)) return false;
  if (f.behavior !== -2 && R.b[i] !== f.behavior) return false;
  return !(f.level !== -2 && data.cases.level[c] !== f.level);
}

function parsedFilters() {
  const { state } = view;
  const index = (value: string, none: number) => (value === '' ? none : Number(value));
  return {
    split: index(state.split, -1),
    model: index(state.model, -1),
    judge: index(state.judge, -1),
    outcome: state.outcome,
    error: state.error,
    bit: state.error === '' || state.error === 'none' ? 0 : 1 << (Number(state.error) - 1),
    behavior: index(state.behavior, -2),
    level: index(state.level, -2),
  };
}

/** Recomputes `view.matches` from the filters and the search. */
export function applyFilters(): void {
  const C = data.cases;
  const filters = parsedFilters();
  const query = view.state.q.toLowerCase();
  if (query && searchText === null)
    searchText = C.id.map((id, i) => `${id}\n${C.query[i]}`.toLowerCase());
  const result: number[] = [];
  for (let i = 0; i < data.rows.c.length; i += 1) {
    if (!passes(i, filters)) continue;
    if (query && searchText![data.rows.c[i]!]!.indexOf(query) < 0) continue;
    result.push(i);
  }
  view.matches = result;
}
