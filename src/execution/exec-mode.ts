/**
 * One conversation of one execution mode (direct, plan-first, refine) from a (task, trial)'s shared
 * opening: the agent is shown the mode's plan, the user simulator continues from its recorded first
 * message, the environment's reward scores the end, and the result becomes an `executions.jsonl` line.
 */
import type { ExecMode } from '../metrics/executable.js';
import { AGENT_PROMPT_VERSION, agentSystemText, modelAgent } from './agent.js';
import type { ExecDependencies, ExecEnvironment, ExecRunSpec, ExecTaskView } from './exec-spec.js';
import { runConversation, type LoopResult, type ToolSession } from './loop.js';
import { planBlock } from './plans.js';
import {
  EXEC_SCHEMA_VERSION,
  type ExecutionLine,
  type OpeningLine,
  type RewardRecord,
} from './records.js';
import { modelUser, USER_PROMPT_VERSION } from './user-simulator.js';

/** The user simulator's own tools, where the environment gives the user some (telecom). */
const userToolsOf = (env: ExecEnvironment) =>
  env.userTools ? { tools: env.userTools, toolGuidelines: env.userToolGuidelines ?? '' } : {};

const NO_CALLS = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };

/** What a conversation that could not start (its first user message failed) leaves. */
function notStarted(opening: OpeningLine): LoopResult {
  return {
    messages: [],
    termination: 'infrastructure_error',
    stopSignal: null,
    steps: 0,
    toolErrors: 0,
    error: opening.error!,
    usage: { agent: NO_CALLS, user: NO_CALLS },
  };
}

/** The conversation itself: the agent shown `shown` (or no plan), the user from the recorded first message. */
function converse(
  spec: ExecRunSpec,
  deps: ExecDependencies,
  task: ExecTaskView,
  trial: number,
  opening: OpeningLine,
  context: { shown: string | null; session: ToolSession; signal: AbortSignal },
): Promise<LoopResult> {
  if (opening.first_user_message === null) return Promise.resolve(notStarted(opening));
  return runConversation({
    agent: modelAgent({
      provider: deps.agent,
      system: agentSystemText(spec.env.policy, context.shown),
      tools: spec.env.tools,
      sampling: spec.sampling.agent,
      repeat: trial,
      taskId: task.id,
    }),
    user: modelUser({
      provider: deps.user,
      scenario: task.userScenario.instructions,
      persona: task.userScenario.persona,
      sampling: spec.sampling.user,
      repeat: trial,
      ...userToolsOf(spec.env),
    }),
    session: context.session,
    maxSteps: spec.maxSteps,
    maxErrors: spec.maxErrors,
    firstUserMessage: {
      content: opening.first_user_message,
      toolCalls: [],
      usage: null,
      cached: true,
    },
    signal: context.signal,
  });
}

/** The plan part of a plan mode's line: what was shown, the draft, and for refine the refined plan. */
function planOf(mode: ExecMode, opening: OpeningLine, shown: string | null) {
  if (mode === 'direct' || !opening.draft) return {};
  return {
    plan: {
      shown,
      before: opening.draft,
      ...(mode === 'refine' && opening.refined ? { after: opening.refined } : {}),
    },
  };
}

/** One conversation of one mode, from the shared opening, scored by the environment. */
export async function executeMode(
  spec: ExecRunSpec,
  deps: ExecDependencies,
  task: ExecTaskView,
  trial: number,
  mode: ExecMode,
  opening: OpeningLine,
  signal: AbortSignal,
): Promise<ExecutionLine> {
  const now = deps.now ?? (() => new Date());
  const started = now().toISOString();
  const judged = mode === 'refine' ? opening.refined : mode === 'plan-first' ? opening.draft : null;
  const shown = judged ? planBlock(judged.plan) : null;
  const session = spec.env.openSession(task);
  const result = await converse(spec, deps, task, trial, opening, { shown, session, signal });
  // The reward decides what an ending is worth (an infrastructure error: null, as the reward defines it).
  const scored: RewardRecord = await deps.evaluate(
    { task, messages: result.messages, termination: result.termination, session },
    signal,
  );
  return {
    schema_version: EXEC_SCHEMA_VERSION,
    task_id: task.id,
    env: spec.env.id,
    mode,
    model: deps.agent.id,
    user_model: deps.user.id,
    trial,
    reward: scored.reward,
    reward_info: scored.reward_info,
    termination: result.termination,
    stop_signal: result.stopSignal,
    steps: result.steps,
    tool_errors: result.toolErrors,
    messages: result.messages,
    ...planOf(mode, opening, shown),
    usage: result.usage,
    ...(result.error ? { error: result.error } : {}),
    reward_details: scored.details,
    apb: {
      nl_judge: deps.nlJudgeId ?? null,
      agent_prompt_version: AGENT_PROMPT_VERSION,
      user_prompt_version: USER_PROMPT_VERSION,
      planner_prompt_version: opening.draft?.plan.prompt_version ?? null,
      started_at: started,
      finished_at: now().toISOString(),
    },
  };
}
