/**
 * `exec-scores.json` from an exec run directory's lines: Table 3 (metrics/executable.ts), the usage and cost of every
 * role (agent, user simulator, planner, critic, judge), termination counts, and per-task rewards for the reports.
 */
import type { Limits } from '../limits.js';
import { parseRunFileValue } from '../rundir/schemas/index.js';
import { readJsonLines } from '../rundir/jsonl-store.js';
import { table3Report } from '../metrics/executable-pooled.js';
import { type ExecutionRow, type PlanScore, type Table3Row } from '../metrics/executable.js';
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
  /** The `as_of` date of data/prices.json the costs were computed with (set by the report writer). */
  prices_as_of?: string;
  /** The judges of the plans (APB CR and grade), sorted; `rules` is the structural judge, not the paper's LLM judge. */
  plan_judges?: string[];
  /** Who played and judged: the tested models, user simulators, refine critics, plan and NL-assertion judges. */
  players?: ExecPlayers;
  /** Table 3 (floor rows first per environment, then the pooled tau2 rows), and the plan-verdict × reward rows. */
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

/** One run directory's line files (`floorPath`: its `floor.jsonl`, when it has one). */
export interface ExecSource {
  plansPath: string;
  executionsPath: string;
  floorPath?: string | null;
}

/** Who played and judged, over a run's lines (each list sorted; a role with no call is empty). */
export interface ExecPlayers {
  agents: string[];
  user_models: string[];
  critics: string[];
  plan_judges: string[];
  nl_judges: string[];
}

async function readLines<T>(
  file: string,
  kind: 'executions' | 'plans',
  limits: Limits | undefined,
): Promise<T[]> {
  const out: T[] = [];
  for await (const { line: at, value } of readJsonLines(file, undefined, limits))
    out.push(parseRunFileValue(kind, value, { file, line: at }) as T);
  return out;
}

/** The latest line per (env, task, mode, trial) over every source (a later line replaces an earlier one). */
async function latestExecutions(
  sources: readonly ExecSource[],
  limits: Limits | undefined,
): Promise<ExecutionLine[]> {
  const executions = new Map<string, ExecutionLine>();
  for (const source of sources)
    for (const line of await readLines<ExecutionLine>(source.executionsPath, 'executions', limits))
      executions.set(JSON.stringify([line.env, line.task_id, line.mode, line.trial]), line);
  return [...executions.values()];
}

/** The floor's lines as Table 3 rows (a scripted agent: counted as the direct mode, marked as the floor). */
async function floorRows(
  sources: readonly ExecSource[],
  limits: Limits | undefined,
): Promise<ExecutionRow[]> {
  const rows: ExecutionRow[] = [];
  for (const source of sources) {
    if (!source.floorPath) continue;
    for (const line of await readLines<ExecutionLine>(source.floorPath, 'executions', limits))
      rows.push({ ...executionRow({ ...line, mode: 'direct' }), floor: true });
  }
  return rows;
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

function playersOf(executions: readonly ExecutionLine[], openings: readonly OpeningLine[]) {
  const judged = openings.flatMap((opening) =>
    [opening.draft, opening.refined].filter(
      (plan): plan is JudgedPlan => Boolean(plan) && plan!.judgement.status !== 'not_judged',
    ),
  );
  return {
    agents: sorted(executions.map((line) => line.model)),
    user_models: sorted(executions.map((line) => line.user_model)),
    critics: sorted(openings.flatMap((opening) => opening.refined?.plan.critic ?? [])),
    plan_judges: sorted(judged.map((plan) => plan.judgement.judge)),
    nl_judges: sorted(executions.flatMap((line) => line.apb.nl_judge ?? [])),
  };
}

function usageOf(
  priceOf: PriceOf,
  executions: readonly ExecutionLine[],
  openings: readonly OpeningLine[],
): Record<string, RoleTotals> {
  const totals = new Totals(priceOf);
  const userModels = new Map<string, string>();
  for (const line of executions) {
    userModels.set(line.model, line.user_model);
    totals.add('agent', line.model, line.usage.agent);
    totals.add('user', line.user_model, line.usage.user);
    const nlJudge = line.reward_details.nl_judge as
      { model?: string; usage?: Usage | null; cached?: boolean } | undefined;
    if (nlJudge?.model)
      totals.addCall('judge', nlJudge.model, nlJudge.usage ?? null, nlJudge.cached ?? false);
  }
  for (const opening of openings)
    addOpening(totals, opening, opening.user_model ?? userModels.get(opening.model) ?? 'unknown');
  return Object.fromEntries(totals.roles);
}

/** Reads an exec run directory's lines (and its floor, when given) and computes its scores. */
export async function computeExecScores(
  plansPath: string,
  executionsPath: string,
  priceOf: PriceOf,
  floorFile: string | null = null,
): Promise<ExecScores> {
  return computeExecScoresOf([{ plansPath, executionsPath, floorPath: floorFile }], priceOf);
}

/** The scores of several run directories as one (one per tau2 domain: Table 3's pooled row). */
export async function computeExecScoresOf(
  sources: readonly ExecSource[],
  priceOf: PriceOf,
  limits?: Limits,
): Promise<ExecScores> {
  const executions = await latestExecutions(sources, limits);
  const openings: OpeningLine[] = [];
  for (const source of sources) {
    const own = new Map<string, OpeningLine>();
    for (const line of await readLines<OpeningLine>(source.plansPath, 'plans', limits))
      own.set(JSON.stringify([line.task_id, line.trial]), line);
    openings.push(...own.values());
  }
  const terminations: Record<string, number> = {};
  for (const line of executions)
    terminations[line.termination] = (terminations[line.termination] ?? 0) + 1;
  const players = playersOf(executions, openings);
  const rows = executions.map(executionRow);
  const table3Rows = table3Report([...(await floorRows(sources, limits)), ...rows]);
  const toolsandbox = toolSandboxTable3(table3Rows, executions);
  return {
    schema_version: 1,
    executions: executions.length,
    openings: openings.length,
    terminations,
    ...execOutcomes(executions),
    usage: usageOf(priceOf, executions, openings),
    plan_judges: players.plan_judges,
    players,
    tables: {
      table3: table3Rows,
      plan_verdict_reward: planVerdictReward(rows),
      ...(toolsandbox.length > 0 ? { toolsandbox } : {}),
    },
  };
}
