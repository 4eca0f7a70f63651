/**
 * The layout of an `apb run` of one or several models: each model's run directory, its
 * `ResolvedRun` and sampling, and the checks made before anything runs (endpoint limits that must
 * agree, a `--batch` that has a vendor to batch with). Pure but for resolving paths.
 */
import path from 'node:path';
import { resolveDatasetDir } from '../dataset/read-cases.js';
import { UsageError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { ResolvedRun } from '../pipeline/run.js';
import { BATCH_VENDORS, takesBatches } from '../providers/registry.js';
import { modelDirName } from '../pipeline/run-dirs.js';
import { parseSplits, type ModelEntry, type RunSpec } from '../pipeline/run-spec.js';
import type { SamplingParams } from '../providers/provider.js';
import { DEFAULT_PROMPT_OPTIONS } from '../settings/prompt.js';

/** `runs/<UTC timestamp>-<model>`, safe as a folder name. */
export function defaultOutDir(model: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join('runs', `${stamp}-${modelDirName(model)}`);
}

/** A model entry's sampling parameters (what enters its cache keys and its manifest). */
export function samplingOf(entry: ModelEntry): SamplingParams {
  return {
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.maxTokens ? { maxOutputTokens: entry.maxTokens } : {}),
    ...(entry.seed !== undefined ? { seed: entry.seed } : {}),
    ...(entry.reasoningEffort ? { reasoningEffort: entry.reasoningEffort } : {}),
    ...(entry.thinkingBudget !== undefined ? { thinkingBudget: entry.thinkingBudget } : {}),
  };
}

/** The cases a run selects (dataset, splits, repeats, limit, ids, shard). */
export function selectionOf(spec: RunSpec & { limits?: Limits | undefined }) {
  const splits = parseSplits(spec.splits);
  return {
    ...(spec.limits ? { limits: spec.limits } : {}),
    datasetDir: resolveDatasetDir(spec.data),
    splits,
    repeats: spec.repeats,
    ...(spec.limit ? { limitPerSplit: spec.limit } : {}),
    ...(spec.ids ? { ids: new Set(spec.ids) } : {}),
    ...(spec.shard ? { shard: spec.shard } : {}),
  };
}

/** The planner prompt's options of a run (its protocol and refusal instruction). */
export function promptOptionsOf(spec: RunSpec) {
  return { ...DEFAULT_PROMPT_OPTIONS, protocol: spec.protocol, allowRefusal: spec.allowRefusal };
}

/** Two models on one endpoint share its limiter: their explicit limits must agree. */
export function assertEndpointLimits(models: readonly ModelEntry[]): void {
  const seen = new Map<string, ModelEntry>();
  for (const entry of models) {
    const key = `${entry.spec.split(':')[0]} ${entry.baseUrl ?? ''}`;
    const other = seen.get(key);
    for (const limit of ['concurrency', 'rpm', 'tpm'] as const) {
      if (
        other &&
        entry[limit] !== undefined &&
        other[limit] !== undefined &&
        entry[limit] !== other[limit]
      ) {
        throw new UsageError(
          `${entry.spec} and ${other.spec} share an endpoint but set different ${limit} (${entry[limit]} and ${other[limit]}): an endpoint has one limit`,
        );
      }
    }
    if (!other) seen.set(key, entry);
  }
}

/** One model's run as the orchestrator takes it (everything but the planner is shared by every model). */
export function resolvedRunOf(
  spec: RunSpec & { limits?: Limits | undefined },
  entry: ModelEntry,
  outDir: string,
  judge: { version: string },
): ResolvedRun {
  return {
    outDir,
    selection: selectionOf(spec),
    concurrency: spec.concurrency,
    promptOptions: promptOptionsOf(spec),
    skipInvalid: spec.skipInvalid,
    retryErrors: spec.retryErrors,
    baseUrl: entry.baseUrl ?? null,
    judgeBaseUrl: spec.judgeBaseUrl ?? null,
    judgeBlind: spec.judgeBlind,
    judgeVersion: judge.version,
    judgeIds: spec.judges,
    ...(spec.limits ? { limits: spec.limits } : {}),
  };
}

/** The run directory of each model: `--out` itself for one model, `--out/<model>/` for several. */
export function outDirsOf(spec: RunSpec, now: Date): { root: string | null; dirs: string[] } {
  if (spec.models.length === 1)
    return {
      root: null,
      dirs: [path.resolve(spec.out ?? defaultOutDir(spec.models[0]!.spec, now))],
    };
  const root = path.resolve(spec.out ?? defaultOutDir('leaderboard', now));
  const names = spec.models.map((entry) => modelDirName(entry.spec));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  if (clash)
    throw new UsageError(
      `two models would share the run directory ${path.join(root, clash)}: rename one in the config file`,
    );
  return { root, dirs: names.map((name) => path.join(root, name)) };
}

/** `--batch` needs a model of a vendor with a batch API among the planners and judges, and cannot keep a budget. */
export function assertBatchable(spec: RunSpec): void {
  if (spec.maxCost)
    throw new UsageError(
      '--max-cost cannot yet keep a budget over batches (their cost is known only when they end): estimate with --dry-run --batch instead',
    );
  const specs = [...spec.models.map((entry) => entry.spec), ...spec.judges];
  if (!specs.some((model) => takesBatches(model.split(':')[0] ?? ''))) {
    throw new UsageError(
      `--batch: none of the run's models (${specs.join(', ')}) is of a vendor with a batch API (${BATCH_VENDORS.join(', ')})`,
    );
  }
}
