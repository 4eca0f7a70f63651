/**
 * The planning stage of plan-first and refine execution (paper §5.1): the tested model writes an APB holistic
 * plan of the task — APB's holistic prompt over the user's first message, the tools and the policy — and the
 * refine mode revises that same draft with APB's critique (i14's `refineAnswer`). What the agent is then shown
 * is `planBlock`, put into its system prompt by `withPlan`. Nothing here sees a reference or a label.
 */
import type { CaseInput } from '../dataset/case.js';
import { isFatal, ProviderError } from '../errors.js';
import type { Provider, SamplingParams, ToolDefinition, Usage } from '../providers/provider.js';
import { redact } from '../redact.js';
import { refineAnswer } from '../refine/refine-answer.js';
import type { Critic } from '../refine/critic.js';
import type { RefineRound, RefineStatus } from '../refine/records.js';
import { SETTINGS } from '../settings/index.js';
import type { Attempt, ParsedAnswer } from '../settings/attempt.js';
import { DEFAULT_PROMPT_OPTIONS, type Prompt } from '../settings/prompt.js';

/** What the planner is given: the policy (the agent's operating context), the user's first message and the tools. */
export interface PlanningContext {
  policy: string | null;
  request: string;
  tools: readonly ToolDefinition[];
}

/** A plan as recorded: the raw reply, what it parsed into, and what the call cost. */
export interface PlanRecord {
  /** `ok` (a plan or refusal was read), `parse_error` (the text is kept and shown), `error` (no reply). */
  status: 'ok' | 'parse_error' | 'error';
  text: string;
  parsed: Attempt | null;
  error?: { kind: string; message: string };
  usage: Usage | null;
  cached: boolean;
  prompt_version: string;
}

/** A refined plan: the refinement's rounds and outcome beside the plan it produced (the draft when none came back). */
export interface RefinedPlanRecord extends PlanRecord {
  refine_status: RefineStatus;
  critic: string;
  taxonomy: boolean;
  rounds: RefineRound[];
  critic_usage: Usage | null;
  reviser_usage: Usage | null;
}

/** The APB planner's view of the task, as a holistic case input (no files, no trajectory). */
export function planningInput(context: PlanningContext): CaseInput {
  return {
    regime: 'Holistic',
    query: context.request,
    systemPrompt: context.policy,
    tools: context.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    })),
    files: [],
    trajectoryPrefix: [],
    horizon: null,
  };
}

/** APB's holistic planner prompt for the task. */
export function draftPlanPrompt(context: PlanningContext): Prompt {
  return SETTINGS.holistic_planning.buildPrompt(planningInput(context), DEFAULT_PROMPT_OPTIONS);
}

/** How a planning call is made. */
export interface PlanCallOptions {
  sampling: SamplingParams;
  repeat: number;
  signal?: AbortSignal;
  /** The JSON cap plans are read under (`Limits.jsonDepth`); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number | undefined;
}

/** Asks the tested model for the draft plan; a failed call is recorded, a fatal one (key, abort) propagates. */
export async function draftPlan(
  planner: Provider,
  context: PlanningContext,
  options: PlanCallOptions,
): Promise<PlanRecord> {
  const prompt = draftPlanPrompt(context);
  const base = {
    prompt_version: prompt.promptVersion,
    usage: null,
    cached: false,
    parsed: null,
    text: '',
  };
  try {
    const result = await planner.generate(
      {
        messages: prompt.messages,
        promptVersion: prompt.promptVersion,
        json: true,
        sampling: options.sampling,
        repeat: options.repeat,
        role: 'planner',
      },
      options.signal,
    );
    const input = planningInput(context);
    const parsed = SETTINGS.holistic_planning.parseAnswer(result.text, input, options.jsonDepth);
    const common = { ...base, text: result.text, usage: result.usage, cached: result.cached };
    return parsed.kind === 'parse_error'
      ? { ...common, status: 'parse_error', error: { kind: 'parse', message: parsed.message } }
      : { ...common, status: 'ok', parsed };
  } catch (error) {
    if (isFatal(error) || !(error instanceof ProviderError)) throw error;
    return {
      ...base,
      status: 'error',
      error: { kind: error.kind, message: redact(error.message) },
    };
  }
}

/** How the draft is refined: the reviser is the tested model, the critic any provider (the reviser for self). */
export interface RefinePlanOptions extends PlanCallOptions {
  reviser: Provider;
  critic: Provider | Critic;
  taxonomy: boolean;
  rounds?: number;
  /** The critic's options (`--critic-…`); default temperature 0. */
  criticSampling?: SamplingParams;
}

const toUsage = (usage: {
  input_tokens: number;
  output_tokens: number;
  calls: number;
}): Usage | null =>
  usage.calls > 0 ? { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } : null;

/** The revised plan as recorded: read, or kept as text with a parse error. */
function revisedPlan(
  text: string,
  parsedReply: ParsedAnswer | null,
  draft: PlanRecord,
): PlanRecord {
  const parsed = parsedReply && parsedReply.kind !== 'parse_error' ? parsedReply : null;
  const revised = {
    text,
    parsed,
    usage: null,
    cached: false,
    prompt_version: draft.prompt_version,
  };
  return parsed
    ? { ...revised, status: 'ok' }
    : {
        ...revised,
        status: 'parse_error',
        error: { kind: 'parse', message: 'the revised plan could not be read' },
      };
}

/** Refines a draft with APB's critique; a draft that has no text (its call failed) is not refined. */
export async function refinePlan(
  draft: PlanRecord,
  context: PlanningContext,
  options: RefinePlanOptions,
): Promise<RefinedPlanRecord> {
  const criticId = 'id' in options.critic ? options.critic.id : 'unknown';
  if (draft.status === 'error') {
    return {
      ...draft,
      refine_status: 'revision_failed',
      critic: criticId,
      taxonomy: options.taxonomy,
      rounds: [],
      critic_usage: null,
      reviser_usage: null,
    };
  }
  const outcome = await refineAnswer(
    {
      split: 'holistic_planning',
      input: planningInput(context),
      prompt: draftPlanPrompt(context),
      initialAnswer: draft.text,
      reviser: options.reviser,
      critic: options.critic,
      taxonomy: options.taxonomy,
      rounds: options.rounds ?? 1,
      sampling: options.sampling,
      ...(options.criticSampling ? { criticSampling: options.criticSampling } : {}),
      json: true,
      repeat: options.repeat,
      jsonDepth: options.jsonDepth,
    },
    options.signal,
  );
  const plan = outcome.text === null ? draft : revisedPlan(outcome.text, outcome.parsed, draft);
  return {
    ...plan,
    refine_status: outcome.status,
    critic: outcome.critic,
    taxonomy: outcome.taxonomy,
    rounds: outcome.rounds,
    critic_usage: toUsage(outcome.usage.critic),
    reviser_usage: toUsage(outcome.usage.planner),
  };
}

/** Longest raw plan text shown to the agent when the reply could not be read as a plan. */
export const RAW_PLAN_CHAR_LIMIT = 8000;

/** What the agent is shown of a plan: the parsed plan and tool chain, the raw reply when unreadable, nothing without one. */
export function planBlock(plan: Pick<PlanRecord, 'status' | 'text' | 'parsed'>): string | null {
  if (plan.parsed?.kind === 'plan') {
    const chain = plan.parsed.toolChain.map(
      (call, index) =>
        `${index + 1}. ${call.name} ${JSON.stringify(call.arguments ?? {})}${call.reason ? ` — ${call.reason}` : ''}`,
    );
    return [
      plan.parsed.plan.trim(),
      chain.length > 0 ? `Tool calls foreseen:\n${chain.join('\n')}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  if (plan.parsed?.kind === 'refusal')
    return `The planner judged that the request cannot be carried out: ${plan.parsed.reason}`;
  const raw = plan.text.trim();
  if (raw === '') return null;
  return raw.length > RAW_PLAN_CHAR_LIMIT
    ? `${raw.slice(0, RAW_PLAN_CHAR_LIMIT)}\n[… plan truncated]`
    : raw;
}

/** The words that introduce the plan to the agent (this project's own). */
export const PLAN_PREAMBLE =
  "Before this conversation, a planner studied the customer's first message, the policy and the tools, and wrote the plan below. " +
  'Use it as a guide. It was written before any tool was run, so check it against what the tools return and what the customer says, ' +
  'and let the policy win wherever the two disagree.';

/** The agent's system text with the plan appended as its own section. */
export function withPlan(systemText: string, block: string): string {
  const section = `<plan>\n${PLAN_PREAMBLE}\n\n${block}\n</plan>`;
  return systemText.trim() === '' ? section : `${systemText}\n\n${section}`;
}
