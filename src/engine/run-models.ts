/**
 * `apb run` as a library function: one or several tested models at once in one engine — one
 * limiter pool, one response cache, one budget, one batcher — each into its own run directory
 * (resumable on its own), with the reports, the leaderboard of several, and the facts the exit
 * policy reads. `pipeline/run.ts` stays the orchestrator of one run directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Limits } from '../limits.js';
import type { RunReporter } from '../pipeline/events.js';
import { Budget } from '../pipeline/budget.js';
import { runWithBatches } from '../pipeline/batch-run.js';
import { readManifest, writeManifest } from '../pipeline/manifest.js';
import { writeRunOutputs } from '../pipeline/outputs.js';
import {
  runEvaluation,
  type ResolvedRun,
  type RunDependencies,
  type RunSummary,
} from '../pipeline/run.js';
import type { RunSpec } from '../pipeline/run-spec.js';
import { Batcher, type BatcherOptions } from '../providers/batch/batcher.js';
import type { EndpointStats } from '../providers/endpoints.js';
import { acquireRunLocks } from '../rundir/lock.js';
import type { HeadlineKey } from '../report/scorecard.js';
import { writeLeaderboard, writeRunReports, type WrittenReports } from '../report/write-reports.js';
import { createRunProviders, type RunProviders } from './providers.js';
import { resolveJudge, resolvePlanner } from './resolve.js';
import {
  assertBatchable,
  assertEndpointLimits,
  outDirsOf,
  resolvedRunOf,
  samplingOf,
} from './run-layout.js';
import { explainFailure, referenceRunsOf } from './run-outcome.js';

/** A run's spec as the command gives it, with the response cache's folder. */
export type RunModelsSpec = RunSpec & {
  cacheDir: string;
  /** The size caps (`APB_MAX_*` for the CLI); default `DEFAULT_LIMITS`. */
  limits?: Limits;
  /** The leaderboard's ranking headline (default holistic CR). */
  rankBy?: HeadlineKey;
};

/** How a caller follows the run (every member optional). */
export interface RunModelsHooks {
  /** First Ctrl-C: no new case starts. */
  stop?: AbortSignal;
  /** Second Ctrl-C: calls in flight are cancelled. */
  signal?: AbortSignal;
  /** The progress of each model's run; `traffic` reads the retries and 429s so far. */
  reporter?(
    runs: number,
    traffic: () => { retries: number; rateLimited: number },
  ): { forRun(label: string): RunReporter };
  /** `--batch`: each batch's life (created, polled, ended). */
  onBatchEvent?: BatcherOptions['onEvent'];
  /** `--batch`: between passes, how many calls wait on how many batches. */
  onBatchPass?(pass: number, pending: { deferred: number; outstanding: number }): void;
  /** Once every model's run has ended: what each endpoint saw. */
  onEndpoints?(stats: EndpointStats[]): void;
  /** A line worth telling (a failed model among several). */
  notice?(message: string): void;
  /** The run directories' clock (default: now). */
  now?: Date;
}

/** What the runs did, and where their reports are. */
export interface RunModelsSummary {
  /** The leaderboard folder of several models, or null. */
  root: string | null;
  dirs: string[];
  summaries: RunSummary[];
  reports: WrittenReports | null;
  /** Reference points shown beside the run (the default run's oracle and refusal). */
  references: number;
}

/** Checks the spec, opens the batcher and the providers, and runs every model; closes them after. */
export async function runModels(
  spec: RunModelsSpec,
  hooks: RunModelsHooks = {},
): Promise<RunModelsSummary> {
  assertEndpointLimits(spec.models);
  if (spec.batch) assertBatchable(spec);
  const layout = outDirsOf(spec, hooks.now ?? new Date());
  // One batcher per command: its log sits in the run directory, or beside the model directories of a leaderboard run.
  const batcher = spec.batch
    ? await Batcher.open(layout.root ?? layout.dirs[0]!, {
        pollMs: spec.batchPollMs,
        ...(spec.batchMaxRequests ? { maxRequests: spec.batchMaxRequests } : {}),
        ...(spec.batchMaxTokens ? { maxTokens: spec.batchMaxTokens } : {}),
        ...(spec.batchTimeout ? { timeoutMs: spec.batchTimeout * 1000 } : {}),
        ...(hooks.onBatchEvent ? { onEvent: hooks.onBatchEvent } : {}),
        ...(spec.limits ? { limits: spec.limits } : {}),
      })
    : undefined;
  const budget = spec.maxCost ? new Budget(spec.maxCost) : undefined;
  const providers = createRunProviders({
    concurrency: spec.concurrency,
    ...(spec.rpm ? { rpm: spec.rpm } : {}),
    ...(spec.tpm ? { tpm: spec.tpm } : {}),
    timeoutMs: spec.timeoutMs,
    maxRetries: spec.maxRetries,
    cache: spec.cache,
    cacheDir: spec.cacheDir,
    ...(budget ? { budget } : {}),
    ...(batcher ? { batch: batcher } : {}),
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  try {
    return await runAll(spec, hooks, { providers, budget, layout, batcher });
  } finally {
    providers.close();
  }
}

interface Engine {
  providers: RunProviders;
  budget: Budget | undefined;
  layout: { root: string | null; dirs: string[] };
  batcher: Batcher | undefined;
}

/** The planners of every model and the one judge of the run, over the shared providers. */
function playersOf(spec: RunSpec, providers: RunProviders) {
  const json = spec.protocol === 'official';
  const planners = spec.models.map((entry) =>
    resolvePlanner(entry.spec, providers, {
      baseUrl: entry.baseUrl ?? null,
      sampling: samplingOf(entry),
      json,
      overrides: entry,
    }),
  );
  const judge = resolveJudge(spec.judges, providers, {
    baseUrl: spec.judgeBaseUrl ?? null,
    protocol: spec.protocol,
    blind: spec.judgeBlind,
    ...(spec.judgeSampling ? { sampling: spec.judgeSampling } : {}),
  });
  return { planners, judge };
}

/** Runs every model at once under its lock; each keeps its own directory and resumes on its own. */
async function runAll(
  spec: RunModelsSpec,
  hooks: RunModelsHooks,
  engine: Engine,
): Promise<RunModelsSummary> {
  const { providers, budget, batcher } = engine;
  const { planners, judge } = playersOf(spec, providers);
  const { root, dirs } = engine.layout;
  // One writer per run directory (and per leaderboard folder): all taken before anything runs.
  const locks = acquireRunLocks(root ? [root, ...dirs] : dirs, 'run');
  const evaluate = (run: ResolvedRun, deps: RunDependencies) =>
    batcher
      ? runWithBatches(run, deps, batcher, hooks.onBatchPass ? { onPass: hooks.onBatchPass } : {})
      : runEvaluation(run, deps);
  const progress = hooks.reporter?.(planners.length, () => providers.traffic());
  try {
    const settled = await Promise.allSettled(
      spec.models.map((entry, index) =>
        evaluate(resolvedRunOf(spec, entry, dirs[index]!, judge), {
          planner: planners[index]!,
          judge,
          ...(progress ? { reporter: progress.forRun(planners[index]!.id) } : {}),
          ...(hooks.stop ? { stop: hooks.stop } : {}),
          ...(hooks.signal ? { signal: hooks.signal } : {}),
          endpointStats: () => providers.endpointStats(),
          lock: locks[(root ? 1 : 0) + index]!,
          ...(budget ? { budget } : {}),
        }),
      ),
    );
    hooks.onEndpoints?.(providers.endpointStats());
    if (spec.models.length > 1) recordFinalEndpoints(dirs, providers.endpointStats(), spec.limits);
    return await writeOutputs(spec, hooks, engine.layout, settled);
  } finally {
    for (const lock of locks.reverse()) lock.release();
  }
}

/** The reports of every finished run and the leaderboard; a failed run's error is thrown after. */
async function writeOutputs(
  spec: RunModelsSpec,
  hooks: RunModelsHooks,
  layout: { root: string | null; dirs: string[] },
  settled: PromiseSettledResult<RunSummary>[],
): Promise<RunModelsSummary> {
  const { root, dirs } = layout;
  const summaries = settled.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  let reports: WrittenReports | null = null;
  const extraRuns = await referenceRunsOf(spec, summaries);
  for (const summary of summaries)
    reports = await writeRunOutputs(
      summary.dir,
      (dir) => writeRunReports(dir, { extraRuns, limits: spec.limits }),
      undefined,
      spec.limits,
    );
  const failed = settled.findIndex((result) => result.status === 'rejected');
  // The leaderboard is written even when a model's run failed: the others' rows stand, and the
  // failed run's row is marked by its status.
  const written = dirs.filter((dir) => existsSync(path.join(dir, 'judgements.jsonl')));
  if (root && written.length > 0)
    reports = await writeLeaderboard(root, written, { rankBy: spec.rankBy, limits: spec.limits });
  if (failed >= 0 && spec.models.length > 1)
    hooks.notice?.(
      `apb: the run of ${spec.models[failed]!.spec} failed; the other models' runs kept their results`,
    );
  if (failed >= 0)
    throw explainFailure(
      (settled[failed] as PromiseRejectedResult).reason,
      spec.models.length > 1 ? spec.models[failed]!.spec : null,
      dirs[failed]!,
    );
  return { root, dirs, summaries, reports, references: extraRuns.length };
}

/**
 * The models of one command share one pool of endpoints, and each run records the pool's counts
 * when it ends: an early finisher's record is a snapshot. Once every run has settled, each manifest
 * gets the pool's final counts, so the reports (and the leaderboard's Endpoints table) show them.
 */
export function recordFinalEndpoints(
  dirs: readonly string[],
  stats: EndpointStats[],
  limits?: Limits,
): void {
  if (stats.length === 0) return;
  for (const dir of dirs) {
    const manifest = readManifest(dir, limits);
    if (manifest) writeManifest(dir, { ...manifest, endpoints: stats });
  }
}
