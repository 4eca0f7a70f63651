/** The exec reports' plan-verdict × reward table (execution/plan-verdict-reward.ts): one line per (env, model, mode). */
import type { PlanVerdictRewardRow, Proportion } from '../execution/plan-verdict-reward.js';
import { fixed } from './numbers.js';

/** The columns. */
export const PLAN_VERDICT_HEADER: string[] = [
  'Environment',
  'Model',
  'Mode',
  'n',
  'correct & solved',
  'correct & unsolved',
  'incorrect & solved',
  'incorrect & unsolved',
  'P(solved | correct) [95% CI]',
  'P(solved | incorrect) [95% CI]',
  'AUC of grade',
  'flips → correct: solved draft → refined (turned solved)',
];

/** What the table says. */
export const PLAN_VERDICT_NOTE =
  'Does a good plan predict a good execution? Each executed plan (plan-first: the draft; refine: the refined plan) by its APB verdict, against whether its execution solved the task (reward 1). Intervals are Wilson 95%; the AUC is the grade’s for solving (ties half). Flips: refine plans that turned from incorrect to correct, solved with the draft (plan-first) and with the refined plan. Executions without a reward or without a judged plan are left out.';

const share = (value: Proportion) =>
  value.p === null
    ? '—'
    : `${value.k}/${value.n} = ${fixed(value.p, 2)} [${fixed(value.low!, 2)}, ${fixed(value.high!, 2)}]`;

/** One row's cells. */
export function planVerdictCells(row: PlanVerdictRewardRow): string[] {
  const flips = row.flips?.to_correct;
  return [
    row.env,
    row.model,
    row.mode,
    String(row.n),
    String(row.table.correct_solved),
    String(row.table.correct_unsolved),
    String(row.table.incorrect_solved),
    String(row.table.incorrect_unsolved),
    share(row.p_solved_given_correct),
    share(row.p_solved_given_incorrect),
    row.grade_auc === null ? '—' : fixed(row.grade_auc, 3),
    flips
      ? `${flips.flips}: ${flips.solved_with_draft} → ${flips.solved_with_refined} of ${flips.paired} (${flips.turned_solved})`
      : '—',
  ];
}
