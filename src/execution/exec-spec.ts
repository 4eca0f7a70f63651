/**
 * What an exec run is given (`runExec`, exec-run.ts; one conversation: exec-mode.ts): the tasks and
 * environment as the run needs them, the selection and limits, who plays and judges, and the reward.
 */
import type { Limits } from '../limits.js';
import type { Judge } from '../judge/judge.js';
import type { ExecMode } from '../metrics/executable.js';
import type { Provider, SamplingParams } from '../providers/provider.js';
import type { Critic } from '../refine/critic.js';
import type { LoopMessage, LoopTermination, ToolSession } from './loop.js';
import type { ExecEnvironment, ExecTaskView } from './exec-conversation.js';
import type { ExecutionLine, RewardRecord } from './records.js';

export type { ExecEnvironment, ExecTaskView } from './exec-conversation.js';

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
  sampling: {
    agent: SamplingParams;
    user: SamplingParams;
    planner: SamplingParams;
    /** The refine critic's options; absent: temperature 0. */
    critic?: SamplingParams;
  };
  /** The caps the run files and the plans are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
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
