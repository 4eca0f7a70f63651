/**
 * A (task, trial)'s opening, made once and shared by its modes (paper §5.1: "Plan-first and Refine share the same
 * initial planning artifact"): the user simulator's first message, then — when a plan mode is asked for — the
 * draft plan over it, the refined draft, and both plans' APB judgements. An opening read back on resume is
 * completed, never remade: a part already there is never asked for again.
 */
import { isFatal, ProviderError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import type { ExecMode } from '../metrics/executable.js';
import type { Provider, SamplingParams, ToolDefinition } from '../providers/provider.js';
import type { Critic } from '../refine/critic.js';
import { redact } from '../redact.js';
import { AGENT_GREETING, type LoopRoleUsage } from './loop.js';
import { judgePlan, planningCase, type ReferenceCall } from './plan-judgement.js';
import { draftPlan, refinePlan, type PlanningContext, type PlanRecord } from './plans.js';
import { EXEC_SCHEMA_VERSION, type OpeningLine } from './records.js';
import { modelUser } from './user-simulator.js';

/** What making an opening needs. */
export interface OpeningContext {
  env: { id: string; policy: string; tools: readonly ToolDefinition[] };
  task: {
    id: string;
    userScenario: { persona: string | null; instructions: string };
    actions: readonly ReferenceCall[] | null;
    /** The user's first message where the task fixes it (ToolSandbox): no simulator call. */
    firstUserMessage?: string;
  };
  trial: number;
  modes: readonly ExecMode[];
  model: string;
  user: Provider;
  planner: Provider;
  critic: Provider | Critic;
  taxonomy: boolean;
  judge: Judge;
  sampling: { user: SamplingParams; planner: SamplingParams; critic?: SamplingParams };
  signal?: AbortSignal;
  /** The JSON cap plans are read under; default `DEFAULT_LIMITS`'. */
  jsonDepth?: number | undefined;
}

/** The planner's view of an opening: the policy, the user's first message, the tools. */
export function planningContextOf(
  context: OpeningContext,
  firstUserMessage: string,
): PlanningContext {
  return { policy: context.env.policy, request: firstUserMessage, tools: context.env.tools };
}

async function firstUserMessage(
  context: OpeningContext,
): Promise<Pick<OpeningLine, 'first_user_message' | 'first_user_usage' | 'error'>> {
  const usage: LoopRoleUsage = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };
  const fixed = context.task.firstUserMessage;
  if (fixed !== undefined) return { first_user_message: fixed, first_user_usage: usage };
  const user = modelUser({
    provider: context.user,
    scenario: context.task.userScenario.instructions,
    persona: context.task.userScenario.persona,
    sampling: context.sampling.user,
    repeat: context.trial,
  });
  try {
    const turn = await user([{ role: 'assistant', content: AGENT_GREETING }], context.signal);
    Object.assign(usage, {
      calls: 1,
      cached_calls: Number(turn.cached),
      input_tokens: turn.cached ? 0 : (turn.usage?.inputTokens ?? 0),
      output_tokens: turn.cached ? 0 : (turn.usage?.outputTokens ?? 0),
    });
    return { first_user_message: turn.content ?? '', first_user_usage: usage };
  } catch (error) {
    if (isFatal(error) || !(error instanceof ProviderError)) throw error;
    return {
      first_user_message: null,
      first_user_usage: usage,
      error: { role: 'user', kind: error.kind, message: redact(error.message) },
    };
  }
}

/** A new opening: the user simulator's first message, no plan yet. */
async function newOpening(context: OpeningContext): Promise<OpeningLine> {
  return {
    schema_version: EXEC_SCHEMA_VERSION,
    task_id: context.task.id,
    trial: context.trial,
    env: context.env.id,
    model: context.model,
    user_model: context.user.id,
    ...(await firstUserMessage(context)),
    draft: null,
    refined: null,
  };
}

/** Makes (or completes, given what resume read back) the opening of a (task, trial); returns it and whether it changed. */
export async function ensureOpening(
  context: OpeningContext,
  known: OpeningLine | undefined,
): Promise<{ opening: OpeningLine; changed: boolean }> {
  let opening: OpeningLine = known ?? (await newOpening(context));
  let changed = !known;
  const first = opening.first_user_message;
  if (first === null) return { opening, changed };
  const planning = planningContextOf(context, first);
  const caseItem = planningCase(
    `${context.env.id}:${context.task.id}:${context.trial}`,
    planning,
    context.task.actions,
  );
  const judged = async <P extends PlanRecord>(plan: P) => ({
    plan,
    judgement: await judgePlan(
      context.judge,
      caseItem,
      planning,
      plan,
      context.trial,
      context.signal,
    ),
  });
  const options = {
    sampling: context.sampling.planner,
    repeat: context.trial,
    ...(context.signal ? { signal: context.signal } : {}),
    jsonDepth: context.jsonDepth,
  };
  if (context.modes.some((mode) => mode !== 'direct') && !opening.draft) {
    opening = {
      ...opening,
      draft: await judged(await draftPlan(context.planner, planning, options)),
    };
    changed = true;
  }
  if (context.modes.includes('refine') && !opening.refined && opening.draft) {
    const plan = await refinePlan(opening.draft.plan, planning, {
      ...options,
      reviser: context.planner,
      critic: context.critic,
      taxonomy: context.taxonomy,
      ...(context.sampling.critic ? { criticSampling: context.sampling.critic } : {}),
    });
    opening = { ...opening, refined: await judged(plan) };
    changed = true;
  }
  return { opening, changed };
}
