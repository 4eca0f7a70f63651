/**
 * Does a good plan predict a good execution? Beyond the paper's means (issue 21, item 6): per
 * (environment, model, mode) with a plan, the APB verdict of each executed plan against whether
 * its execution solved the task (reward 1) — the 2×2 table, P(solved | correct plan) and
 * P(solved | incorrect plan) with Wilson 95% intervals, the AUC of the plan's grade for solving
 * (Mann–Whitney, ties counted half) — and, for refine, what became of the plans refinement
 * flipped (draft incorrect → refined correct, and back), compared with the same (task, trial)'s
 * plan-first execution of the draft. Executions without a reward (unjudged, infrastructure
 * errors) or without a judged plan are left out and counted.
 */
import type { ExecutionRow, PlanScore } from '../metrics/executable.js';

/** A proportion with its Wilson 95% interval (null when nothing was counted). */
export interface Proportion {
  k: number;
  n: number;
  p: number | null;
  low: number | null;
  high: number | null;
}

/** What refinement's flips became, compared with the draft's plan-first execution of the same (task, trial). */
export interface FlipOutcome {
  flips: number;
  /** Flips whose plan-first and refine executions both have a reward. */
  paired: number;
  solved_with_draft: number;
  solved_with_refined: number;
  /** Unsolved with the draft, solved with the refined plan. */
  turned_solved: number;
  turned_unsolved: number;
}

/** One (env, model, mode) row. */
export interface PlanVerdictRewardRow {
  env: string;
  model: string;
  mode: string;
  n: number;
  /** Executions left out: no reward, or no judged plan. */
  excluded: number;
  table: {
    correct_solved: number;
    correct_unsolved: number;
    incorrect_solved: number;
    incorrect_unsolved: number;
  };
  p_solved_given_correct: Proportion;
  p_solved_given_incorrect: Proportion;
  /** AUC of the grade for solved (null without both classes or without grades). */
  grade_auc: number | null;
  /** refine only: plans that turned correct, and plans that turned incorrect. */
  flips?: { to_correct: FlipOutcome; to_incorrect: FlipOutcome };
}

/** Wilson's 95% score interval for k of n. */
export function wilson(k: number, n: number): Proportion {
  if (n === 0) return { k, n, p: null, low: null, high: null };
  const z = 1.959963984540054;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { k, n, p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The AUC of `scores` for the positives: P(score of a positive > a negative's), ties counted half. */
export function auc(positives: number[], negatives: number[]): number | null {
  if (positives.length === 0 || negatives.length === 0) return null;
  let wins = 0;
  for (const positive of positives)
    for (const negative of negatives)
      wins += positive > negative ? 1 : positive === negative ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

/** The plan a mode executed: plan-first the draft, refine the refined plan. */
const executedPlan = (row: ExecutionRow): PlanScore | null =>
  row.mode === 'refine' ? row.planAfter : row.mode === 'plan-first' ? row.planBefore : null;

const solvedOf = (row: ExecutionRow): boolean | null =>
  row.infrastructureError || row.reward === null ? null : row.reward === 1;

function flipOutcome(flipped: ExecutionRow[], draftRuns: Map<string, ExecutionRow>): FlipOutcome {
  const outcome: FlipOutcome = {
    flips: flipped.length,
    paired: 0,
    solved_with_draft: 0,
    solved_with_refined: 0,
    turned_solved: 0,
    turned_unsolved: 0,
  };
  for (const row of flipped) {
    const draft = draftRuns.get(JSON.stringify([row.env, row.model, row.taskId, row.trial]));
    const withDraft = draft ? solvedOf(draft) : null;
    const withRefined = solvedOf(row);
    if (withDraft === null || withRefined === null) continue;
    outcome.paired += 1;
    if (withDraft) outcome.solved_with_draft += 1;
    if (withRefined) outcome.solved_with_refined += 1;
    if (!withDraft && withRefined) outcome.turned_solved += 1;
    if (withDraft && !withRefined) outcome.turned_unsolved += 1;
  }
  return outcome;
}

function rowOf(rows: ExecutionRow[], draftRuns: Map<string, ExecutionRow>): PlanVerdictRewardRow {
  const table = {
    correct_solved: 0,
    correct_unsolved: 0,
    incorrect_solved: 0,
    incorrect_unsolved: 0,
  };
  const grades = { solved: [] as number[], unsolved: [] as number[] };
  let excluded = 0;
  for (const row of rows) {
    const plan = executedPlan(row);
    const solved = solvedOf(row);
    if (!plan || solved === null) {
      excluded += 1;
      continue;
    }
    const key =
      `${plan.is_correct ? 'correct' : 'incorrect'}_${solved ? 'solved' : 'unsolved'}` as const;
    table[key] += 1;
    if (typeof plan.grade === 'number') grades[solved ? 'solved' : 'unsolved'].push(plan.grade);
  }
  const first = rows[0]!;
  const result: PlanVerdictRewardRow = {
    env: first.env,
    model: first.model,
    mode: first.mode,
    n: rows.length - excluded,
    excluded,
    table,
    p_solved_given_correct: wilson(
      table.correct_solved,
      table.correct_solved + table.correct_unsolved,
    ),
    p_solved_given_incorrect: wilson(
      table.incorrect_solved,
      table.incorrect_solved + table.incorrect_unsolved,
    ),
    grade_auc: auc(grades.solved, grades.unsolved),
  };
  if (first.mode === 'refine') {
    const judgedBoth = rows.filter((row) => row.planBefore && row.planAfter);
    result.flips = {
      to_correct: flipOutcome(
        judgedBoth.filter((row) => !row.planBefore!.is_correct && row.planAfter!.is_correct),
        draftRuns,
      ),
      to_incorrect: flipOutcome(
        judgedBoth.filter((row) => row.planBefore!.is_correct && !row.planAfter!.is_correct),
        draftRuns,
      ),
    };
  }
  return result;
}

/** The plan-verdict × reward rows of a run, one per (env, model, mode) with a plan, in first-seen order. */
export function planVerdictReward(rows: readonly ExecutionRow[]): PlanVerdictRewardRow[] {
  const groups = new Map<string, ExecutionRow[]>();
  const draftRuns = new Map<string, ExecutionRow>();
  for (const row of rows) {
    if (row.mode === 'plan-first')
      draftRuns.set(JSON.stringify([row.env, row.model, row.taskId, row.trial]), row);
    if (row.mode !== 'plan-first' && row.mode !== 'refine') continue;
    const key = JSON.stringify([row.env, row.model, row.mode]);
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => rowOf(group, draftRuns));
}
