/**
 * The exec report's case-browser filters (pure): every execution's facets — environment, mode, outcome,
 * termination, the draft plan's APB verdict — as data attributes, a bar of selects listing the values present,
 * and the small page script that hides the executions outside the chosen values; and the per-mode outcome table
 * (executions, mean reward, reward 1, below 1, not evaluated, infrastructure errors) that also covers replays.
 */
import type { ExecutionLine } from '../execution/records.js';
import { isSuccess } from '../metrics/executable.js';
import { escapeHtml } from './escape.js';
import { count, fixed } from './numbers.js';

/** The filterable facets, in the bar's order, with their labels. */
const FACETS = [
  ['env', 'Environment'],
  ['mode', 'Mode'],
  ['outcome', 'Outcome'],
  ['termination', 'Termination'],
  ['verdict', 'Plan verdict'],
] as const;

type Facet = (typeof FACETS)[number][0];

/** One execution's outcome: reward 1, below 1, not evaluated (NL assertions unjudged) or an infrastructure error. */
export function outcomeOf(line: ExecutionLine): string {
  if (line.termination === 'infrastructure_error') return 'infrastructure error';
  if (line.reward === null) return 'not evaluated';
  return isSuccess(line.reward) ? 'reward 1 (solved)' : 'reward < 1';
}

function verdictOf(line: ExecutionLine): string {
  const before = line.plan?.before;
  if (!before) return 'no plan';
  return before.judgement.judgement.is_correct ? 'draft plan correct' : 'draft plan not correct';
}

/** The facet values of one execution. */
export function facetsOf(line: ExecutionLine): Record<Facet, string> {
  return {
    env: line.env,
    mode: line.mode,
    outcome: outcomeOf(line),
    termination: line.termination,
    verdict: verdictOf(line),
  };
}

/** The data attributes of one execution's `<details>` element. */
export function facetAttributes(line: ExecutionLine): string {
  return Object.entries(facetsOf(line))
    .map(([facet, value]) => ` data-${facet}="${escapeHtml(value)}"`)
    .join('');
}

/** The filter bar: one select per facet with the values the executions have ("all" first), and a shown count. */
export function filterBar(lines: readonly ExecutionLine[]): string {
  const values = new Map<Facet, Set<string>>(FACETS.map(([facet]) => [facet, new Set()]));
  for (const line of lines)
    for (const [facet, value] of Object.entries(facetsOf(line)))
      values.get(facet as Facet)!.add(value);
  const selects = FACETS.map(([facet, label]) => {
    const options = [...values.get(facet)!]
      .sort()
      .map((value) => `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`)
      .join('');
    return `<label>${escapeHtml(label)} <select data-filter="${facet}"><option value="">all</option>${options}</select></label>`;
  }).join(' ');
  return `<div class="exec-filters" id="exec-filters">${selects} <span class="note" id="exec-shown">${count(lines.length)} shown</span></div>`;
}

/** Hides the executions whose facets differ from a chosen value; updates the shown count. No innerHTML. */
export const FILTER_SCRIPT = `(() => {
  const selects = [...document.querySelectorAll('#exec-filters select')];
  const cases = [...document.querySelectorAll('details.case')];
  const shown = document.getElementById('exec-shown');
  const apply = () => {
    let visible = 0;
    for (const item of cases) {
      const keep = selects.every((select) => !select.value || item.dataset[select.dataset.filter] === select.value);
      item.hidden = !keep;
      if (keep) visible += 1;
    }
    shown.textContent = visible + ' of ' + cases.length + ' shown';
  };
  for (const select of selects) select.addEventListener('change', apply);
})();`;

export const FILTER_CSS = `.exec-filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 8px 0; } .exec-filters select { margin-left: 4px; }`;

/** Outcomes per mode (a replay's `replay` too): executions, mean reward over the evaluated ones, and the counts. */
export function modeOutcomeRows(lines: readonly ExecutionLine[]): string[][] {
  const byMode = new Map<string, ExecutionLine[]>();
  for (const line of lines) byMode.set(line.mode, [...(byMode.get(line.mode) ?? []), line]);
  return [...byMode].map(([mode, own]) => {
    const rewarded = own.filter(
      (line) => line.reward !== null && line.termination !== 'infrastructure_error',
    );
    const mean =
      rewarded.length > 0
        ? rewarded.reduce((sum, line) => sum + line.reward!, 0) / rewarded.length
        : null;
    const tally = (outcome: string) => own.filter((line) => outcomeOf(line) === outcome).length;
    return [
      mode,
      count(own.length),
      fixed(mean, 2),
      count(tally('reward 1 (solved)')),
      count(tally('reward < 1')),
      count(tally('not evaluated')),
      count(tally('infrastructure error')),
    ];
  });
}

export const MODE_OUTCOME_HEADER = [
  'Mode',
  'Executions',
  'Mean reward',
  'Reward 1',
  'Reward below 1',
  'Not evaluated',
  'Infrastructure errors',
];
