/** Table 3 and pass^k against hand-computed figures. */
import { describe, expect, it } from 'vitest';
import { passHatKs, table3, type ExecutionRow } from './executable.js';
import { passHatK } from './repeats.js';

const row = (overrides: Partial<ExecutionRow>): ExecutionRow => ({
  env: 'tau2:retail',
  model: 'openai:gpt-4o',
  mode: 'direct',
  taskId: '0',
  trial: 0,
  reward: 1,
  rewardIfNlMet: 1,
  infrastructureError: false,
  planBefore: null,
  planAfter: null,
  ...overrides,
});

describe('pass^k', () => {
  it('is C(c,k)/C(n,k) per task, averaged over tasks', () => {
    expect(passHatK(3, 2, 1)).toBeCloseTo(2 / 3, 12);
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3, 12);
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(() => passHatK(2, 2, 3)).toThrow(/needs k ≤ n/);
    // Task A: 1, 0, 1 (2 of 3). Task B: 1, 1, 1. By hand: k=1 (2/3 + 1)/2, k=2 (1/3 + 1)/2, k=3 (0 + 1)/2.
    const rows = [1, 0, 1]
      .map((reward, trial) => row({ taskId: 'A', trial, reward }))
      .concat([0, 1, 2].map((trial) => row({ taskId: 'B', trial })));
    const ks = passHatKs(rows);
    expect(ks['1']).toBeCloseTo(5 / 6, 12);
    expect(ks['2']).toBeCloseTo(2 / 3, 12);
    expect(ks['3']).toBeCloseTo(1 / 2, 12);
  });

  it('counts a reward of 1 up to float error as a success, lowers K to the fewest trials, and skips unrewarded runs', () => {
    const rows = [
      row({ taskId: 'A', trial: 0, reward: 0.9999999 }),
      row({ taskId: 'A', trial: 1, reward: null }),
      row({ taskId: 'B', trial: 0 }),
      row({ taskId: 'B', trial: 1 }),
    ];
    expect(passHatKs(rows)).toEqual({ '1': 1 });
  });
});

describe('table3', () => {
  it('fills every cell from executions: mean reward per mode, the draft counted once, the refined plan after', () => {
    const before = { is_correct: false, grade: 0.4 };
    const rows: ExecutionRow[] = [
      row({ taskId: '0', mode: 'direct', reward: 0 }),
      row({ taskId: '1', mode: 'direct', reward: 1 }),
      row({ taskId: '0', mode: 'plan-first', reward: 1, planBefore: before }),
      row({
        taskId: '1',
        mode: 'plan-first',
        reward: 0,
        planBefore: { is_correct: true, grade: 1 },
      }),
      row({
        taskId: '0',
        mode: 'refine',
        reward: 1,
        planBefore: before,
        planAfter: { is_correct: true, grade: 0.8 },
      }),
      row({
        taskId: '1',
        mode: 'refine',
        reward: 1,
        planBefore: { is_correct: true, grade: 1 },
        planAfter: { is_correct: true, grade: 1 },
      }),
    ];
    const [figures] = table3(rows);
    expect(figures).toMatchObject({
      env: 'tau2:retail',
      model: 'openai:gpt-4o',
      direct: 0.5,
      plan_first: 0.5,
      refine: 1,
      apb_cr_before: 50,
      apb_cr_after: 100,
      n: 2,
      trials: 1,
    });
    expect(figures!.apb_grade_before).toBeCloseTo(0.7, 12);
    expect(figures!.apb_grade_after).toBeCloseTo(0.9, 12);
    expect(figures!.detail.plans_before).toBe(2);
    expect(figures!.pass_hat_k).toBeUndefined();
  });

  it('leaves infrastructure errors out, averages only judged rewards, and gives the bound with unjudged NL assertions', () => {
    const rows = [
      row({ taskId: '0', reward: 1 }),
      row({ taskId: '1', reward: null, rewardIfNlMet: 1 }),
      row({ taskId: '2', reward: 0, infrastructureError: true }),
      row({ taskId: '3', reward: 0, rewardIfNlMet: 0 }),
    ];
    const [figures] = table3(rows);
    expect(figures!.direct).toBe(0.5);
    expect(figures!.detail.modes.direct).toMatchObject({
      runs: 2,
      unevaluated: 1,
      infrastructure_errors: 1,
    });
    expect(figures!.detail.modes.direct!.reward_if_nl_met).toBeCloseTo(2 / 3, 12);
    expect(figures!.plan_first).toBeNull();
    expect(figures!.apb_cr_before).toBeNull();
  });

  it('gives pass^k per mode with several trials', () => {
    const rows = [0, 1].flatMap((trial) => [
      row({ taskId: '0', trial, mode: 'direct', reward: trial }),
      row({ taskId: '0', trial, mode: 'refine', reward: 1 }),
    ]);
    const [figures] = table3(rows);
    expect(figures!.pass_hat_k).toEqual({
      direct: { '1': 0.5, '2': 0 },
      refine: { '1': 1, '2': 1 },
    });
  });
});
