/**
 * `exec-scores.json` from an exec run directory's lines: Table 3 (metrics/executable.ts), the usage and cost of every
 * role (agent, user simulator, planner, critic, judge), termination counts, and per-task rewards for the reports.
 */
import { parseRunFileValue } from '../rundir/schemas/index.js';
import { readJsonLines } from '../rundir/jsonl-store.js';
import {
  table3,
  type ExecutionRow,
  type PlanScore,
  type Table3Row,
} from '../metrics/executable.js';
import type { Usage } from '../providers/provider.js';
import { execOutcomes, type ExecOutcomes, type FailureReason } from './exec-outcomes.js';
import type { LoopRoleUsage } from './loop.js';
import type { JudgedPlan, ExecutionLine, OpeningLine } from './records.js';
import { planVerdictReward, type PlanVerdictRewardRow } from './plan-verdict-reward.js';
import { toolSandboxTable3, type ToolSandboxTable3Row } from './environments/toolsandbox/table3.js';

/** Usage and cost of one role over a run. */
export interface RoleTotals {
  model: string | null;
  calls: number;
  cached_calls: number;
  input_tokens: number;
  output_tokens: number;
  /** null when a model of the role has no price in data/prices.json. */
  cost_usd: number | null;
}

/** `exec-scores.json`. */
export interface ExecScores {
  schema_version: number;
  executions: number;
  openings: number;
  terminations: Record<string, number>;
  /** Every execution in one of success, failed, unevaluated, infrastructure error; tool errors summed. */
  outcomes: ExecOutcomes;
  /** Why executions fell short of reward 1, most frequent first (at most five), one example each. */
  failure_reasons: FailureReason[];
  usage: Record<string, RoleTotals>;
  /** The judges of the plans (APB CR and grade), sorted; `rules` is the structural judge, not the paper's LLM judge. */
  plan_judges?: string[];
  /** Table 3, and the plan-verdict × reward rows (plan-verdict-reward.ts) of the plan modes. */
  tables: {
    table3: Table3Row[];
    plan_verdict_reward?: PlanVerdictRewardRow[];
    /** Table 3's ToolSandbox rows in the paper's percent, when the run has ToolSandbox lines. */
    toolsandbox?: ToolSandboxTable3Row[];
  };
}

/** The loud line of a run whose plans the structural judge scored (no `--judge`), or null. */
export function structuralJudgeNote(scores: ExecScores): string | null {
  if (!scores.plan_judges?.includes('rules')) return null;
  return "APB CR and grade here are the structural `rules` judge's (no --judge was given), not the paper's LLM judge protocol: they are not comparable with the paper. Give --judge PROVIDER:MODEL to judge the plans as the paper did.";
}

/** Prices usage of a model: `(model, usage) → USD or null` (null: the model has no price). */
export type PriceOf = (model: string, usage: Usage | null) => number | null;

const scoreOf = (judged: JudgedPlan | undefined | null): PlanScore | null =>
  judged
    ? { is_correct: judged.judgement.judgement.is_correct, grade: judged.judgement.judgement.grade }
    : null;

/** An execution line as a Table 3 row. */
export function executionRow(line: ExecutionLine): ExecutionRow {
  const ifMet = line.reward_info.reward_if_nl_met;
  return {
    env: line.env,
    model: line.model,
    mode: line.mode,
    taskId: line.task_id,
    trial: line.trial,
    reward: line.reward,
    rewardIfNlMet: typeof ifMet === 'number' ? ifMet : line.reward,
    infrastructureError: line.termination === 'infrastructure_error',
    planBefore: scoreOf(line.plan?.before),
    planAfter: scoreOf(line.plan?.after),
  };
}

class Totals {
  readonly roles = new Map<string, RoleTotals>();
  constructor(private readonly priceOf: PriceOf) {}

  add(
    role: string,
    model: string,
    usage: Pick<LoopRoleUsage, 'calls' | 'cached_calls' | 'input_tokens' | 'output_tokens'>,
  ): void {
    if (usage.calls === 0) return;
    const entry = this.roles.get(role) ?? {
      model,
      calls: 0,
      cached_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    };
    if (entry.model !== model) entry.model = null;
    entry.calls += usage.calls;
    entry.cached_calls += usage.cached_calls;
    entry.input_tokens += usage.input_tokens;
    entry.output_tokens += usage.output_tokens;
    const cost = this.priceOf(model, {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
    });
    entry.cost_usd = entry.cost_usd === null || cost === null ? null : entry.cost_usd + cost;
    this.roles.set(role, entry);
  }

  addCall(role: string, model: string, usage: Usage | null, cached: boolean): void {
    this.add(role, model, {
      calls: 1,
      cached_calls: Number(cached),
      input_tokens: cached ? 0 : (usage?.inputTokens ?? 0),
      output_tokens: cached ? 0 : (usage?.outputTokens ?? 0),
    });
  }
}

function addOpening(totals: Totals, opening: OpeningLine, userModel: string): void {
  totals.add('user', userModel, opening.first_user_usage);
  for (const judged of [opening.draft, opening.refined]) {
    if (!judged) continue;
    if (judged.judgement.status !== 'not_judged' && judged.judgement.judge !== 'rules')
      totals.addCall(
        'judge',
        judged.judgement.judge,
        judged.judgement.usage,
        judged.judgement.cached,
      );
  }
  if (opening.draft && opening.draft.plan.status !== 'error')
    totals.addCall('planner', opening.model, opening.draft.plan.usage, opening.draft.plan.cached);
  const refined = opening.refined?.plan;
  if (refined) {
    for (const round of refined.rounds) {
      if (!round.critique.error)
        totals.addCall('critic', refined.critic, round.critique.usage, round.critique.cached);
      if (round.revision && !round.revision.error)
        totals.addCall('planner', opening.model, round.revision.usage, round.revision.cached);
    }
  }
}

/** Reads an exec run directory's lines and computes its scores. */
export async function computeExecScores(
  plansPath: string,
  executionsPath: string,
  priceOf: PriceOf,
): Promise<ExecScores> {
  const totals = new Totals(priceOf);
  const executions = new Map<string, ExecutionLine>();
  for await (const { line: at, value } of readJsonLines(executionsPath)) {
    const line = parseRunFileValue('executions', value, {
      file: executionsPath,
      line: at,
    }) as ExecutionLine;
    executions.set(JSON.stringify([line.task_id, line.mode, line.trial]), line);
  }
  const userModels = new Map<string, string>();
  const terminations: Record<string, number> = {};
  for (const line of executions.values()) {
    userModels.set(line.model, line.user_model);
    totals.add('agent', line.model, line.usage.agent);
    totals.add('user', line.user_model, line.usage.user);
    terminations[line.termination] = (terminations[line.termination] ?? 0) + 1;
    const nlJudge = line.reward_details.nl_judge as
      { model?: string; usage?: Usage | null; cached?: boolean } | undefined;
    if (nlJudge?.model)
      totals.addCall('judge', nlJudge.model, nlJudge.usage ?? null, nlJudge.cached ?? false);
  }
  const openings = new Map<string, OpeningLine>();
  for await (const { line: at, value } of readJsonLines(plansPath)) {
    const line = parseRunFileValue('plans', value, { file: plansPath, line: at }) as OpeningLine;
    openings.set(JSON.stringify([line.task_id, line.trial]), line);
  }
  const planJudges = new Set<string>();
  for (const opening of openings.values()) {
    addOpening(totals, opening, opening.user_model ?? userModels.get(opening.model) ?? 'unknown');
    for (const judged of [opening.draft, opening.refined])
      if (judged && judged.judgement.status !== 'not_judged')
        planJudges.add(judged.judgement.judge);
  }
  const table3Rows = table3([...executions.values()].map(executionRow));
  const toolsandbox = toolSandboxTable3(table3Rows, [...executions.values()]);
  return {
    schema_version: 1,
    executions: executions.size,
    openings: openings.size,
    terminations,
    ...execOutcomes(executions.values()),
    usage: Object.fromEntries(totals.roles),
    plan_judges: [...planJudges].sort(),
    tables: {
      table3: table3Rows,
      plan_verdict_reward: planVerdictReward([...executions.values()].map(executionRow)),
      ...(toolsandbox.length > 0 ? { toolsandbox } : {}),
    },
  };
}
