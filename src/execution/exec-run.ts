/**
 * `runExec`: executable validation of one model on one environment (paper §5.1). For every (task, trial) it makes
 * the opening once (the user's first message and, for the plan modes, the draft and refined plans), then runs each
 * asked-for mode as a conversation on a fresh database and scores it with the environment's reward. Finished
 * executions are never run again (resume per task, mode and trial); openings are completed, never remade.
 */
import type { Judge } from '../judge/judge.js';
import type { ExecMode } from '../metrics/executable.js';
import type { Provider, SamplingParams } from '../providers/provider.js';
import type { Critic } from '../refine/critic.js';
import { ExecStore, executionKey, openingKey, readKeyed } from './exec-store.js';
import { converseMode, type ExecEnvironment, type ExecTaskView } from './exec-conversation.js';
import type { LoopMessage, LoopTermination, ToolSession } from './loop.js';
import { ensureOpening, type OpeningContext } from './opening.js';
import { planBlock } from './plans.js';
import {
  EXEC_SCHEMA_VERSION,
  type ExecutionLine,
  type OpeningLine,
  type RewardRecord,
} from './records.js';

export type {
  ConverseInput,
  ConverseResult,
  ExecEnvironment,
  ExecTaskView,
} from './exec-conversation.js';

/** The environment's reward for a finished conversation (tau2's evaluator for the tau2 environments). */
export type Evaluate = (
  input: {
    task: ExecTaskView;
    messages: LoopMessage[];
    termination: LoopTermination;
    session: ToolSession;
    mode?: ExecMode;
    trial?: number;
  },
  signal?: AbortSignal,
) => Promise<RewardRecord>;

/** What to execute. */
export interface ExecRunSpec {
  outDir: string;
  env: ExecEnvironment;
  tasks: readonly ExecTaskView[];
  modes: readonly ExecMode[];
  trials: number;
  concurrency: number;
  maxSteps: number;
  maxErrors: number;
  taxonomy: boolean;
  sampling: { agent: SamplingParams; user: SamplingParams; planner: SamplingParams };
}

/** Who plays and judges. */
export interface ExecDependencies {
  agent: Provider;
  user: Provider;
  /** The tested model as planner and reviser (usually the agent's own stack). */
  planner: Provider;
  critic: Provider | Critic;
  judge: Judge;
  evaluate: Evaluate;
  /** The NL-assertion judge the evaluator uses (recorded in every line), or null. */
  nlJudgeId?: string | null;
  /** Told once, before any call: how many executions the selection holds and how many are already finished. */
  onStart?: (event: { total: number; alreadyDone: number }) => void;
  onExecution?: (line: ExecutionLine) => void;
  /** First Ctrl-C: no new (task, trial) starts. */
  stop?: AbortSignal;
  /** Second Ctrl-C / fatal error: calls in flight are cancelled. */
  signal?: AbortSignal;
  /** True once the budget refused a call: nothing new starts. */
  halted?: () => boolean;
  now?: () => Date;
}

/** What a run did. */
export interface ExecSummary {
  total: number;
  alreadyDone: number;
  finished: number;
  interrupted: boolean;
  tornLinesDropped: number;
}

interface UnitState {
  openings: Map<string, OpeningLine>;
  finished: Map<string, ExecutionLine>;
}

/** Runs the modes of one (task, trial) that are not finished yet. */
async function runUnit(
  spec: ExecRunSpec,
  deps: ExecDependencies,
  store: ExecStore,
  state: UnitState,
  task: ExecTaskView,
  trial: number,
  signal: AbortSignal,
): Promise<number> {
  const pending = spec.modes.filter(
    (mode) => !state.finished.has(executionKey(task.id, mode, trial)),
  );
  if (pending.length === 0) return 0;
  const context: OpeningContext = {
    env: {
      id: spec.env.id,
      policy: task.policy ?? spec.env.policy,
      tools: task.tools ?? spec.env.tools,
    },
    task: {
      id: task.id,
      userScenario: task.userScenario,
      actions: task.criteria.actions,
      ...(task.firstUserMessage !== undefined ? { firstUserMessage: task.firstUserMessage } : {}),
    },
    trial,
    modes: spec.modes,
    model: deps.agent.id,
    user: deps.user,
    planner: deps.planner,
    critic: deps.critic,
    taxonomy: spec.taxonomy,
    judge: deps.judge,
    sampling: { user: spec.sampling.user, planner: spec.sampling.planner },
    signal,
  };
  const { opening, changed } = await ensureOpening(
    context,
    state.openings.get(openingKey(task.id, trial)),
  );
  if (changed) store.appendOpening(opening);
  let done = 0;
  for (const mode of pending) {
    if (signal.aborted) break;
    const line = await executeMode(spec, deps, task, trial, mode, opening, signal);
    store.appendExecution(line);
    deps.onExecution?.(line);
    done += 1;
  }
  return done;
}

/** One conversation of one mode, from the shared opening, scored by the environment. */
async function executeMode(
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
    ...(mode !== 'direct' && opening.draft
      ? {
          plan: {
            shown,
            before: opening.draft,
            ...(mode === 'refine' && opening.refined ? { after: opening.refined } : {}),
          },
        }
      : {}),
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

/** Runs (or resumes) the executions into `spec.outDir`. */
export async function runExec(spec: ExecRunSpec, deps: ExecDependencies): Promise<ExecSummary> {
  const store = new ExecStore(spec.outDir);
  const state: UnitState = {
    openings: await readKeyed<OpeningLine>(store.plansPath, (line) =>
      openingKey(line.task_id, line.trial),
    ),
    finished: await readKeyed<ExecutionLine>(store.executionsPath, (line) =>
      executionKey(line.task_id, line.mode, line.trial),
    ),
  };
  const wanted = spec.tasks.flatMap((task) =>
    Array.from({ length: spec.trials }, (_, trial) => ({ task, trial })),
  );
  const total = wanted.length * spec.modes.length;
  const alreadyDone = wanted.reduce(
    (sum, { task, trial }) =>
      sum +
      spec.modes.filter((mode) => state.finished.has(executionKey(task.id, mode, trial))).length,
    0,
  );
  deps.onStart?.({ total, alreadyDone });
  const cancel = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, cancel.signal]) : cancel.signal;
  const halted = () => Boolean(deps.stop?.aborted || signal.aborted || deps.halted?.());
  let finished = 0;
  let fatal: unknown = null;
  const queue = [...wanted];
  const worker = async () => {
    while (queue.length > 0 && !halted() && !fatal) {
      const { task, trial } = queue.shift()!;
      try {
        // Awaited first: `finished += await …` would read `finished` before the wait and lose the other workers' counts.
        const done = await runUnit(spec, deps, store, state, task, trial, signal);
        finished += done;
      } catch (error) {
        if (signal.aborted || deps.halted?.()) continue;
        fatal ??= error;
        cancel.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, spec.concurrency) }, worker));
  } finally {
    store.close();
  }
  if (fatal) throw fatal;
  return {
    total,
    alreadyDone,
    finished,
    interrupted: Boolean(deps.stop?.aborted || deps.signal?.aborted),
    tornLinesDropped: store.tornLinesDropped,
  };
}
