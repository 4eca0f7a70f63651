/**
 * The plan-verdict × reward table on a run whose verdicts, grades and rewards were set by hand
 * (below, one line per execution): every figure is the hand count written beside the rows.
 */
import { describe, expect, it } from 'vitest';
import type { ExecutionRow, PlanScore } from '../../src/metrics/executable.js';
import { planVerdictReward } from '../../src/execution/plan-verdict-reward.js';

const plan = (is_correct: boolean, grade: number | null): PlanScore => ({ is_correct, grade });
const row = (
  mode: 'plan-first' | 'refine',
  taskId: string,
  reward: number | null,
  before: PlanScore | null,
  after: PlanScore | null = null,
  infrastructureError = false,
): ExecutionRow => ({
  env: 'tau2:retail',
  model: 'fake:m',
  mode,
  taskId,
  trial: 0,
  reward,
  rewardIfNlMet: reward,
  infrastructureError,
  planBefore: before,
  planAfter: after,
});

const C = (grade: number) => plan(true, grade);
const I = (grade: number) => plan(false, grade);
const ROWS: ExecutionRow[] = [
  row('direct', 't1', 1, null),
  row('plan-first', 't1', 1, C(0.9)),
  row('plan-first', 't2', 0, C(0.8)),
  row('plan-first', 't3', 0, I(0.3)),
  row('plan-first', 't4', 1, I(0.2)),
  row('plan-first', 't5', 0, I(0.1)),
  row('plan-first', 't6', null, C(0.7)), // NL assertions unjudged: left out
  row('refine', 't1', 1, C(0.9), C(0.95)),
  row('refine', 't2', 0, C(0.8), I(0.4)), // flip to incorrect; the draft's run was unsolved too
  row('refine', 't3', 1, I(0.3), C(0.85)), // flip to correct; unsolved with the draft → solved
  row('refine', 't4', 0, I(0.2), C(0.6)), // flip to correct; solved with the draft → unsolved
  row('refine', 't5', 0, I(0.1), I(0.2)),
  row('refine', 't6', null, C(0.7), null, true), // infrastructure error: left out
];

describe('planVerdictReward', () => {
  const [planFirst, refine, ...rest] = planVerdictReward(ROWS);

  it('has one row per plan mode (direct has no plan)', () => {
    expect(rest).toEqual([]);
    expect([planFirst!.mode, refine!.mode]).toEqual(['plan-first', 'refine']);
  });

  it('counts plan-first by the draft it executed', () => {
    expect(planFirst!.n).toBe(5);
    expect(planFirst!.excluded).toBe(1);
    expect(planFirst!.table).toEqual({
      correct_solved: 1,
      correct_unsolved: 1,
      incorrect_solved: 1,
      incorrect_unsolved: 2,
    });
    const correct = planFirst!.p_solved_given_correct;
    // Wilson 95% for 1 of 2: the textbook (0.0945, 0.9055).
    expect([correct.k, correct.n, correct.p]).toEqual([1, 2, 0.5]);
    expect(correct.low).toBeCloseTo(0.0945, 4);
    expect(correct.high).toBeCloseTo(0.9055, 4);
    expect(planFirst!.p_solved_given_incorrect.p).toBeCloseTo(1 / 3, 10);
    // Solved grades 0.9, 0.2 against unsolved 0.8, 0.3, 0.1: 0.9 beats all three, 0.2 beats 0.1: 4 of 6.
    expect(planFirst!.grade_auc).toBeCloseTo(4 / 6, 10);
    expect(planFirst!.flips).toBeUndefined();
  });

  it('counts refine by the refined plan, and follows its flips to the draft runs', () => {
    expect(refine!.n).toBe(5);
    expect(refine!.table).toEqual({
      correct_solved: 2,
      correct_unsolved: 1,
      incorrect_solved: 0,
      incorrect_unsolved: 2,
    });
    expect(refine!.p_solved_given_incorrect).toMatchObject({ k: 0, n: 2, p: 0 });
    expect(refine!.grade_auc).toBe(1);
    expect(refine!.flips).toEqual({
      to_correct: {
        flips: 2,
        paired: 2,
        solved_with_draft: 1,
        solved_with_refined: 1,
        turned_solved: 1,
        turned_unsolved: 1,
      },
      to_incorrect: {
        flips: 1,
        paired: 1,
        solved_with_draft: 0,
        solved_with_refined: 0,
        turned_solved: 0,
        turned_unsolved: 0,
      },
    });
  });
});
