/**
 * Opening an answer: the case view beside the list (above it when narrow), with "side by side"
 * offering every other answer to the same case. Details load lazily; a later open wins.
 */
import { $, el, options } from './dom.js';
import { answerColumn } from './answer-view.js';
import { caseView } from './case-view.js';
import { modelOf } from './labels.js';
import { renderList } from './list.js';
import { caseDetail, data, rowDetail, STATUS, view } from './store.js';

function rowLabel(row: number): string {
  const R = data.rows;
  const judge = data.judges.length > 1 ? ` · ${data.judges[R.j[row]!]}` : '';
  return `${modelOf(row)}${judge} · repeat ${R.r[row]} · ${STATUS[R.s[row]!]}`;
}

function fillCompare(siblings: readonly number[]): void {
  const select = $<HTMLSelectElement>('compare-select');
  const prompt = siblings.length
    ? `compare with… (${siblings.length} other answers)`
    : 'no other answer to this case';
  const entries = siblings.map((other) => [String(other), rowLabel(other)] as const);
  options(select, [['-1', prompt] as const, ...entries], view.state.compare);
  select.disabled = siblings.length === 0;
}

let openToken = 0;

/** Opens answer `row` (and `compare` beside it when given; -1 none; undefined keeps the current). */
export function openCase(row: number, compare?: number): void {
  const { state } = view;
  if (row < 0 || row >= data.rows.c.length) return;
  state.open = row;
  state.compare = compare === undefined ? state.compare : compare;
  const c = data.rows.c[row]!;
  const token = ++openToken;
  $('case-view').hidden = false;
  $('browser-panes').classList.add('has-case');
  $('case-title').textContent = `${data.splits[data.cases.split[c]!]} · ${data.cases.id[c]}`;
  const body = $('case-body');
  body.replaceChildren(el('p', { className: 'note', text: 'loading…' }));
  const siblings = view.byCase[c]!.filter((other) => other !== row);
  fillCompare(siblings);
  const compared = state.compare >= 0 && siblings.indexOf(state.compare) >= 0;
  if (!compared) state.compare = -1;
  const other = compared ? rowDetail(state.compare) : Promise.resolve(null);
  Promise.all([caseDetail(c), rowDetail(row), other])
    .then(([detail, answer, second]) => {
      if (token !== openToken) return;
      const reference = detail.referenceCalls || [];
      const columns = [answerColumn(row, answer, reference)];
      if (second) columns.push(answerColumn(state.compare, second, reference));
      const className = `answers${columns.length > 1 ? ' side-by-side' : ''}`;
      body.replaceChildren(...caseView(detail), el('div', { className }, columns));
    })
    .catch((error: Error) => {
      const lacking =
        typeof DecompressionStream === 'undefined'
          ? ' (this browser lacks DecompressionStream)'
          : '';
      const text = `Could not read this case: ${error.message}${lacking}`;
      body.replaceChildren(el('p', { className: 'note', text }));
    });
  renderList();
}

/** Closes the case view. */
export function closeCase(): void {
  view.state.open = -1;
  view.state.compare = -1;
  $('case-view').hidden = true;
  $('browser-panes').classList.remove('has-case');
  renderList();
}
