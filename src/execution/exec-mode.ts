/**
 * One conversation of one execution mode (direct, plan-first, refine) from a (task, trial)'s shared
 * opening: the agent is shown the mode's plan, the user simulator continues from its recorded first
 * message, the environment's reward scores the end, and the result becomes an `executions.jsonl` line.
 */
import type { ExecMode } from '../metrics/executable.js';
import { converseMode } from './exec-conversation.js';
import type { ExecDependencies, ExecRunSpec, ExecTaskView } from './exec-spec.js';
import { planBlock } from './plans.js';
import {
  EXEC_SCHEMA_VERSION,
  type ExecutionLine,
  type OpeningLine,
  type RewardRecord,
} from './records.js';

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
  const result = await converseMode({
    env: spec.env,
    task,
    opening,
    planBlock: shown,
    session,
    agent: { provider: deps.agent, sampling: spec.sampling.agent, repeat: trial },
    user: { provider: deps.user, sampling: spec.sampling.user, repeat: trial },
    limits: { maxSteps: spec.maxSteps, maxErrors: spec.maxErrors },
    signal,
  });
  // The reward decides what an ending is worth (an infrastructure error: null, as the reward defines it).
  const scored: RewardRecord = await deps.evaluate(
    { task, messages: result.messages, termination: result.termination, session, mode, trial },
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
    ...scored.fields,
    apb: {
      nl_judge: deps.nlJudgeId ?? null,
      agent_prompt_version: result.promptVersions.agent,
      user_prompt_version: result.promptVersions.user,
      planner_prompt_version: opening.draft?.plan.prompt_version ?? null,
      started_at: started,
      finished_at: now().toISOString(),
    },
  };
}
