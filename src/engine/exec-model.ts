/**
 * `apb exec --mode direct|plan-first|refine[,…] --model SPEC …` as a library function: the
 * one-writer lock, the budget, the provider stack, the players (exec-players.ts), the
 * `exec-manifest.json` life cycle around `runExec`, then the scores and reports. The replay path
 * (`--agent replay:…`) is `runReplay` (exec-replay.ts).
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import type { Environment, ExecTask } from '../execution/environment.js';
import { checkExecIdentity, writeExecManifest } from '../execution/exec-manifest.js';
import { runExec, type ExecSummary } from '../execution/exec-run.js';
import type { ExecutionLine } from '../execution/records.js';
import { dropInfrastructureErrors } from '../execution/exec-retry.js';
import { DEFAULT_MAX_ERRORS } from '../execution/loop.js';
import type { ExecScores } from '../execution/exec-scores.js';
import type { ExecMode } from '../metrics/executable.js';
import { Budget, costOfCall } from '../pipeline/budget.js';
import { acquireRunLock } from '../rundir/lock.js';
import type { SamplingParams } from '../providers/provider.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import {
  identityOf,
  playersOf,
  type ExecModels,
  type ExecPlayers,
  type UserSource,
} from './exec-players.js';
import { writeFloorOf } from './exec-floor.js';
import { createRunProviders, type RunProviders } from './providers.js';

/** What to execute: the environment's selected tasks, the modes, the models and the engine knobs. */
export interface ModelExecutionSpec extends ExecModels {
  environment: Environment;
  tasks: readonly ExecTask[];
  outDir: string;
  modes: readonly ExecMode[];
  /** E1–E6 taxonomy in refine's critique. */
  taxonomy: boolean;
  trials: number;
  maxSteps: number;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  cacheDir: string;
  maxCost?: number;
  /**
   * The invocation's budget when several runs share one `maxCost` (`apb exec --env a,b,c`): each
   * run's gate draws on it, so the cap holds for the whole command. Without it, `maxCost` makes
   * a budget for this run alone.
   */
  budget?: Budget;
  /**
   * The tested agent's, the user simulator's and the refine critic's options (temperature, max
   * tokens, seed, …); a critic's only when given, so earlier run directories keep their identity.
   */
  sampling?: { agent: SamplingParams; user: SamplingParams; critic?: SamplingParams };
  comparePaper: boolean;
  /** In an existing directory: take out what infrastructure errors left, so it runs again. */
  retryErrors: boolean;
  /** The size caps (`APB_MAX_*` for the CLI); default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** The progress a caller shows (the CLI's progress line); every member optional. */
export interface ExecProgressHooks {
  start?(event: { total: number; alreadyDone: number; outDir: string; modes: ExecMode[] }): void;
  onExecution?(line: ExecutionLine): void;
  end?(): void;
}

export interface ModelExecutionHooks {
  /** First Ctrl-C: no new (task, trial) starts. */
  stop?: AbortSignal;
  /** Second Ctrl-C: calls in flight are cancelled. */
  signal?: AbortSignal;
  /** Told who plays the user simulator, before any call. */
  onPlayers?(players: { agent: string; user: string; userSource: UserSource }): void;
  /** Told what `retryErrors` took out of the directory. */
  onRetryErrors?(dropped: { executions: number; openings: number }): void;
  /** The progress display; `calls` reads this invocation's retries and 429s. */
  progress?(calls: () => { retries: number; rateLimited: number }): ExecProgressHooks;
}

export type ExecStatus = 'complete' | 'interrupted' | 'stopped-budget';

/** What the run did: its status, counts, scores, and what the budget and the endpoints saw. */
export interface ModelExecutionSummary {
  status: ExecStatus;
  run: ExecSummary;
  scores: ExecScores;
  agent: string;
  judge: string;
  retries: number;
  /** 429s the endpoints answered (null when no endpoint was called). */
  rateLimited: number | null;
  /** With `maxCost`: what was spent and how many executions were left unrun. */
  budget: { maxCostUsd: number; spentUsd: number; exhausted: boolean; notRun: number } | null;
}

type ManifestStatus = ExecStatus | 'running' | 'failed';
type Counts = { total: number; finished: number; already_done: number };

/** The manifest writer of this run (modes and trials merged with a resumed run's). */
function manifestWriter(
  spec: ModelExecutionSpec,
  identity: ReturnType<typeof identityOf>,
  providers: RunProviders,
  budget: Budget | undefined,
) {
  const previous = checkExecIdentity(spec.outDir, identity);
  const startedAt = previous?.started_at ?? new Date().toISOString();
  const write = (status: ManifestStatus, executions: Counts) =>
    writeExecManifest(spec.outDir, {
      identity,
      modes: [...new Set([...(previous?.modes ?? []), ...spec.modes])],
      trials: Math.max(previous?.trials ?? 0, spec.trials),
      tasks: spec.tasks.length,
      started_at: startedAt,
      ended_at: status === 'running' ? null : new Date().toISOString(),
      status,
      executions,
      ...(budget ? { budget: budget.summary() } : {}),
      endpoints: providers.endpointStats(),
    });
  return { previous, write };
}

interface Engine {
  providers: RunProviders;
  budget: Budget | undefined;
  calls: () => { retries: number; rateLimited: number };
}

/** The run's providers (one limiter pool, cache and budget) and its retry count. */
function openEngine(spec: ModelExecutionSpec): Engine {
  const budget = spec.budget ?? (spec.maxCost ? new Budget(spec.maxCost) : undefined);
  let retries = 0;
  const providers = createRunProviders({
    concurrency: spec.concurrency,
    timeoutMs: spec.timeoutMs,
    maxRetries: spec.maxRetries,
    cache: spec.cache,
    cacheDir: spec.cacheDir,
    ...(budget ? { budget } : {}),
    onRetry: () => (retries += 1),
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  const calls = () => ({
    retries,
    rateLimited: providers.endpointStats().reduce((sum, entry) => sum + entry.rate_limited, 0),
  });
  return { providers, budget, calls };
}

/** Runs the model path of `apb exec` over the selected tasks into `spec.outDir` (resumable). */
export async function runModelExecution(
  spec: ModelExecutionSpec,
  hooks: ModelExecutionHooks = {},
): Promise<ModelExecutionSummary> {
  const engine = openEngine(spec);
  const lock = acquireRunLock(spec.outDir, 'exec');
  try {
    return await executeLocked(spec, hooks, engine);
  } finally {
    engine.providers.close();
    lock.release();
  }
}

async function executeLocked(
  spec: ModelExecutionSpec,
  hooks: ModelExecutionHooks,
  engine: Engine,
): Promise<ModelExecutionSummary> {
  const { providers, budget } = engine;
  const players = playersOf(spec.environment, spec, providers);
  hooks.onPlayers?.({
    agent: players.agent.id,
    user: players.user.id,
    userSource: players.userSource,
  });
  const sampling = spec.sampling ?? { agent: {}, user: {} };
  const identity = identityOf(
    spec.environment,
    players,
    {
      refine: spec.modes.includes('refine'),
      taxonomy: spec.taxonomy,
      maxSteps: spec.maxSteps,
      maxErrors: DEFAULT_MAX_ERRORS,
    },
    sampling,
  );
  const manifest = manifestWriter(spec, identity, providers, budget);
  if (spec.retryErrors && manifest.previous) await retryErrors(spec, hooks);
  const planned = { total: spec.tasks.length * spec.trials * spec.modes.length };
  manifest.write('running', { ...planned, finished: 0, already_done: 0 });
  const run = await execute(spec, hooks, { players, engine, sampling }).catch((error: unknown) => {
    manifest.write('failed', { ...planned, finished: 0, already_done: 0 });
    throw error;
  });
  const status: ExecStatus = budget?.exhausted
    ? 'stopped-budget'
    : run.interrupted
      ? 'interrupted'
      : 'complete';
  manifest.write(status, {
    total: run.total,
    finished: run.finished,
    already_done: run.alreadyDone,
  });
  await writeFloorOf(spec.outDir, spec.environment, spec.tasks);
  const scores = await writeExecOutputs(spec.outDir, costOfCall, {
    comparePaper: spec.comparePaper,
    limits: spec.limits,
  });
  return summaryOf(spec, engine, { status, run, scores, players });
}

/** What the run did, with this invocation's retries, 429s and budget. */
function summaryOf(
  spec: ModelExecutionSpec,
  engine: Engine,
  done: { status: ExecStatus; run: ExecSummary; scores: ExecScores; players: ExecPlayers },
): ModelExecutionSummary {
  const { run, players } = done;
  const { budget, providers } = engine;
  const counted = engine.calls();
  return {
    status: done.status,
    run,
    scores: done.scores,
    agent: players.agent.id,
    judge: players.judge.id,
    retries: counted.retries,
    rateLimited: providers.endpointStats().length > 0 ? counted.rateLimited : null,
    budget: budget
      ? {
          maxCostUsd: spec.maxCost!,
          spentUsd: budget.summary().spent_usd,
          exhausted: budget.exhausted,
          notRun: run.total - run.alreadyDone - run.finished,
        }
      : null,
  };
}

/** `runExec` with the players, the budget's halt and the caller's progress. */
async function execute(
  spec: ModelExecutionSpec,
  hooks: ModelExecutionHooks,
  context: {
    players: ExecPlayers;
    engine: Engine;
    sampling: { agent: SamplingParams; user: SamplingParams; critic?: SamplingParams };
  },
): Promise<ExecSummary> {
  const { players, engine, sampling } = context;
  const { budget } = engine;
  const progress = hooks.progress?.(engine.calls) ?? {};
  return runExec(
    {
      outDir: spec.outDir,
      env: spec.environment,
      tasks: spec.tasks,
      modes: spec.modes,
      trials: spec.trials,
      concurrency: spec.concurrency,
      maxSteps: spec.maxSteps,
      maxErrors: DEFAULT_MAX_ERRORS,
      taxonomy: spec.taxonomy,
      sampling: { ...sampling, planner: sampling.agent },
      limits: spec.limits,
    },
    {
      ...players,
      ...(hooks.stop ? { stop: hooks.stop } : {}),
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(budget ? { halted: () => budget.exhausted } : {}),
      onStart: (event) =>
        progress.start?.({ ...event, outDir: spec.outDir, modes: [...spec.modes] }),
      onExecution: (line) => progress.onExecution?.(line),
    },
  ).finally(() => progress.end?.());
}

/** `retryErrors`: what infrastructure errors left is taken out of the directory, so this run makes it again. */
async function retryErrors(spec: ModelExecutionSpec, hooks: ModelExecutionHooks): Promise<void> {
  const dropped = await dropInfrastructureErrors(
    path.join(spec.outDir, 'plans.jsonl'),
    path.join(spec.outDir, 'executions.jsonl'),
    spec.limits,
  );
  hooks.onRetryErrors?.(dropped);
}
