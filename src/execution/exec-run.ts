/**
 * `runExec`: executable validation of one model on one environment (paper §5.1). For every (task, trial) it makes
 * the opening once (the user's first message and, for the plan modes, the draft and refined plans), then runs each
 * asked-for mode as a conversation on a fresh database and scores it with the environment's reward. Finished
 * executions are never run again (resume per task, mode and trial); openings are completed, never remade.
 */
import { executeMode } from './exec-mode.js';
import { ExecStore, executionKey, openingKey, readKeyed } from './exec-store.js';
import type { ExecDependencies, ExecRunSpec, ExecTaskView } from './exec-spec.js';
import { ensureOpening, type OpeningContext } from './opening.js';
import type { ExecutionLine, OpeningLine } from './records.js';

export type {
  Evaluate,
  ExecDependencies,
  ExecEnvironment,
  ExecRunSpec,
  ExecTaskView,
} from './exec-spec.js';
export type { ConverseInput, ConverseResult } from './exec-conversation.js';

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
    sampling: {
      user: spec.sampling.user,
      planner: spec.sampling.planner,
      ...(spec.sampling.critic ? { critic: spec.sampling.critic } : {}),
    },
    signal,
    jsonDepth: spec.limits?.jsonDepth,
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

/** Runs (or resumes) the executions into `spec.outDir`. */
export async function runExec(spec: ExecRunSpec, deps: ExecDependencies): Promise<ExecSummary> {
  const store = new ExecStore(spec.outDir);
  const state: UnitState = {
    openings: await readKeyed<OpeningLine>(
      store.plansPath,
      (line) => openingKey(line.task_id, line.trial),
      spec.limits,
    ),
    finished: await readKeyed<ExecutionLine>(
      store.executionsPath,
      (line) => executionKey(line.task_id, line.mode, line.trial),
      spec.limits,
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
