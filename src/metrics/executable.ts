/**
 * Executable validation (paper §5.1, Table 3): mean task reward per execution mode, pass^k as tau2-bench defines
 * it, and the APB correctness rate and grade of the draft and refined plans. Pure, over one row per
 * (task, mode, trial). Choices where the paper is silent are recorded in docs/metrics.md ("Table 3").
 */
import { passHatK } from './repeats.js';

/** The three execution modes, in the paper's column order. */
export const EXEC_MODES = ['direct', 'plan-first', 'refine'] as const;
export type ExecMode = (typeof EXEC_MODES)[number];

/** An APB judgement of a plan, as Table 3 needs it. */
export interface PlanScore {
  is_correct: boolean;
  /** null when the judge gave no readable verdict. */
  grade: number | null;
}

/** One execution, as Table 3 needs it. */
export interface ExecutionRow {
  env: string;
  model: string;
  mode: ExecMode;
  taskId: string;
  trial: number;
  /** tau2's reward; null when NL assertions in the basis were not judged. */
  reward: number | null;
  /** With unjudged NL assertions: the reward if they all held (else equal to `reward`). */
  rewardIfNlMet: number | null;
  /** An infrastructure error (a model call that failed) is no evidence about the agent: excluded, as in tau2. */
  infrastructureError: boolean;
  /** The plan's APB judgement before refinement (plan-first and refine rows), and after (refine rows). */
  planBefore: PlanScore | null;
  planAfter: PlanScore | null;
  /** The do-nothing agent's execution (the floor; execution/floor.ts), not a tested model's. */
  floor?: boolean;
}

/** tau2's success test: a reward of 1 up to float error. */
export function isSuccess(reward: number): boolean {
  return reward >= 1 - 1e-6;
}

/**
 * pass^k for k = 1..K, the mean over tasks; K is the fewest evaluated trials any task has (tau2 lowers it to that).
 * Rows without a reward (unjudged NL assertions, infrastructure errors) are left out.
 */
export function passHatKs(rows: readonly ExecutionRow[]): Record<string, number> {
  const byTask = new Map<string, { trials: number; successes: number }>();
  for (const row of rows) {
    if (row.infrastructureError || row.reward === null) continue;
    const entry = byTask.get(row.taskId) ?? { trials: 0, successes: 0 };
    entry.trials += 1;
    if (isSuccess(row.reward)) entry.successes += 1;
    byTask.set(row.taskId, entry);
  }
  if (byTask.size === 0) return {};
  const maxK = Math.min(...[...byTask.values()].map((entry) => entry.trials));
  const out: Record<string, number> = {};
  for (let k = 1; k <= maxK; k += 1) {
    let sum = 0;
    for (const entry of byTask.values()) sum += passHatK(entry.trials, entry.successes, k);
    out[String(k)] = sum / byTask.size;
  }
  return out;
}

/** Mean of the rewards that exist (null when none). */
function meanOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length > 0 ? present.reduce((a, b) => a + b, 0) / present.length : null;
}

/** One mode's figures: mean reward, how many runs it averages, and what it leaves out. */
export interface ModeFigures {
  reward: number | null;
  /** Mean of `rewardIfNlMet` over the same runs plus those with unjudged NL assertions: an upper bound. */
  reward_if_nl_met: number | null;
  runs: number;
  unevaluated: number;
  infrastructure_errors: number;
  pass_hat_k: Record<string, number>;
}

function modeFigures(rows: readonly ExecutionRow[]): ModeFigures {
  const counted = rows.filter((row) => !row.infrastructureError);
  return {
    reward: meanOf(counted.map((row) => row.reward)),
    reward_if_nl_met: meanOf(counted.map((row) => row.rewardIfNlMet)),
    runs: counted.filter((row) => row.reward !== null).length,
    unevaluated: counted.filter((row) => row.reward === null).length,
    infrastructure_errors: rows.length - counted.length,
    pass_hat_k: passHatKs(counted),
  };
}

/** CR (percent of all plans judged correct) and mean grade (over plans with a grade), as `apb run` counts them. */
function planFigures(scores: readonly PlanScore[]): {
  cr: number | null;
  grade: number | null;
  plans: number;
} {
  if (scores.length === 0) return { cr: null, grade: null, plans: 0 };
  return {
    cr: (100 * scores.filter((score) => score.is_correct).length) / scores.length,
    grade: meanOf(scores.map((score) => score.grade)),
    plans: scores.length,
  };
}

/** A Table 3 row: one (environment, model). */
export interface Table3Row {
  env: string;
  model: string;
  /** What the mode columns average: tau2's `reward`, or another environment's per-task score (its name). */
  metric: string;
  /** The do-nothing agent's row, the floor of its environment (first among the environment's rows). */
  floor?: true;
  /** A pooled row (`tau2`): the tasks it pools, per domain. */
  domains?: Record<string, number>;
  direct: number | null;
  plan_first: number | null;
  refine: number | null;
  apb_cr_before: number | null;
  apb_cr_after: number | null;
  apb_grade_before: number | null;
  apb_grade_after: number | null;
  /** Distinct tasks executed. */
  n: number;
  trials: number;
  /** pass^k per mode, when trials > 1. */
  pass_hat_k?: Partial<Record<'direct' | 'plan_first' | 'refine', Record<string, number>>>;
  /** Everything behind the cells: per-mode counts and bounds, plan counts. */
  detail: {
    modes: Partial<Record<'direct' | 'plan_first' | 'refine', ModeFigures>>;
    plans_before: number;
    plans_after: number;
  };
}

const COLUMN: Record<ExecMode, 'direct' | 'plan_first' | 'refine'> = {
  direct: 'direct',
  'plan-first': 'plan_first',
  refine: 'refine',
};

/** The per-task score an environment's mode columns average (`reward` for tau2; ToolSandbox's `similarity`). */
export function metricOf(env: string): string {
  return env.startsWith('toolsandbox') ? 'similarity' : 'reward';
}

/**
 * Table 3 from executions: the draft plan ("before") is each (task, trial)'s draft — counted once even though
 * plan-first and refine both carry it — and the refined plan ("after") comes from the refine rows.
 */
export function table3(rows: readonly ExecutionRow[]): Table3Row[] {
  const groups = new Map<string, ExecutionRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.env, row.model, Boolean(row.floor)]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const modes: Table3Row['detail']['modes'] = {};
    for (const mode of EXEC_MODES) {
      const own = group.filter((row) => row.mode === mode);
      if (own.length > 0) modes[COLUMN[mode]] = modeFigures(own);
    }
    const drafts = new Map<string, PlanScore>();
    for (const row of group)
      if (row.planBefore && row.mode !== 'direct')
        drafts.set(`${row.taskId}\u0000${row.trial}`, row.planBefore);
    const refined = group
      .filter((row) => row.mode === 'refine' && row.planAfter)
      .map((row) => row.planAfter!);
    const before = planFigures([...drafts.values()]);
    const after = planFigures(refined);
    const trials = Math.max(...group.map((row) => row.trial + 1));
    const row: Table3Row = {
      env: first.env,
      model: first.model,
      metric: metricOf(first.env),
      ...(first.floor ? { floor: true as const } : {}),
      direct: modes.direct?.reward ?? null,
      plan_first: modes.plan_first?.reward ?? null,
      refine: modes.refine?.reward ?? null,
      apb_cr_before: before.cr,
      apb_cr_after: after.cr,
      apb_grade_before: before.grade,
      apb_grade_after: after.grade,
      n: new Set(group.map((item) => item.taskId)).size,
      trials,
      detail: { modes, plans_before: before.plans, plans_after: after.plans },
    };
    if (trials > 1)
      row.pass_hat_k = Object.fromEntries(
        Object.entries(modes).map(([mode, figures]) => [mode, figures.pass_hat_k]),
      );
    return row;
  });
}
