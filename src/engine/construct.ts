/**
 * `apb construct` as library functions: one step (`constructStep`) or a pipeline config
 * (`constructPipeline`) with the models of the command (construct-models.ts) and what steps need
 * from outside construction (`constructDeps`: the environments of tau2 import, the reader of
 * judged runs for `--solved-by`). A dry run writes into a temporary folder it removes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPipeline, type PipelineRun } from '../construction/pipeline.js';
import type { ModelUsage } from '../construction/model.js';
import {
  runStep,
  type StepDeps,
  type StepRun,
  type StepSummary,
} from '../construction/run-step.js';
import { InputError, UsageError } from '../errors.js';
import type { Limits } from '../limits.js';
import { ENVIRONMENTS, loadEnvironment } from '../execution/registry.js';
import { readResultRows } from '../pipeline/result-rows.js';
import {
  createConstructModels,
  withBudgetHint,
  type ConstructEngineOptions,
  type ConstructModels,
  type DryRunTally,
} from './construct-models.js';

/** Ids of the cases a run solved (its judgements read under `limits`): every judged repeat correct. */
async function solvedBy(runDir: string, limits?: Limits): Promise<ReadonlySet<string>> {
  const file = path.join(runDir, 'judgements.jsonl');
  if (!existsSync(file))
    throw new UsageError(
      `--solved-by ${runDir}: no judgements.jsonl (give a run directory written by apb run or apb judge)`,
    );
  const { rows, issues } = await readResultRows(file, { limits });
  if (issues.length > 0) throw new InputError(issues);
  const verdicts = new Map<string, boolean>();
  for (const row of rows) verdicts.set(row.id, (verdicts.get(row.id) ?? true) && row.correct);
  return new Set([...verdicts].filter(([, solved]) => solved).map(([id]) => id));
}

/** The outside world a step may need; judged runs are read under `limits`. */
export function constructDeps(limits?: Limits): StepDeps {
  return {
    environment(id) {
      if (!Object.hasOwn(ENVIRONMENTS, id))
        throw new UsageError(
          `construct import --from tau2: no environment ${id} in this build (known: ${Object.keys(ENVIRONMENTS).join(', ')})`,
        );
      return loadEnvironment(id);
    },
    solvedBy: (runDir) => solvedBy(runDir, limits),
  };
}

/** The engine options with the spec's caps, which the models' stacks enforce. */
const withLimits = (engine: ConstructEngineOptions, limits: Limits | undefined) =>
  limits ? { ...engine, limits } : engine;

/** What a construction did: its summaries, each model's usage, and a dry run's tallies. */
export interface ConstructOutcome<T> {
  summary: T;
  usage: Array<{ spec: string; usage: ModelUsage }>;
  /** With `engine.dryRun`: the calls and tokens each model would have had; else null. */
  dryRun: DryRunTally[] | null;
}

/** The command's models around `work`: a dry run's temporary output removed, a budget stop explained. */
async function withModels<T>(
  engine: ConstructEngineOptions,
  out: string,
  work: (models: ConstructModels, out: string) => Promise<T>,
): Promise<ConstructOutcome<T>> {
  const models = createConstructModels(engine);
  const dir = engine.dryRun ? mkdtempSync(path.join(tmpdir(), 'apb-construct-dry-')) : out;
  try {
    const summary = await work(models, dir);
    return { summary, usage: models.usage(), dryRun: engine.dryRun ? models.dryRun() : null };
  } catch (error) {
    throw withBudgetHint(error);
  } finally {
    models.close();
    if (engine.dryRun) rmSync(dir, { recursive: true, force: true });
  }
}

/** One step of `apb construct`: its inputs, output folder, seed and model (`llm`), as `runStep` takes them. */
export interface ConstructStepSpec extends Omit<StepRun, 'model' | 'onItem'> {
  llm: string | null;
  engine: ConstructEngineOptions;
  /** Told every so often as a model step goes through its items (not in a dry run). */
  onItem?: (done: number, total: number) => void;
}

/** Runs one construction step into `spec.out` (a dry run: nothing written). */
export function constructStep(spec: ConstructStepSpec): Promise<ConstructOutcome<StepSummary>> {
  const { llm, engine, onItem, ...run } = spec;
  return withModels(
    withLimits(engine, spec.limits),
    path.resolve(spec.out),
    async (models, out) => {
      const model = models.modelFor(llm);
      return runStep(
        { ...run, out, model, ...(onItem && model && !engine.dryRun ? { onItem } : {}) },
        constructDeps(spec.limits),
      );
    },
  );
}

/** A pipeline config with its overrides applied, as `runPipeline` takes it. */
export interface ConstructPipelineSpec extends Omit<PipelineRun, 'modelFor' | 'onItem' | 'onStep'> {
  /** The endpoint of the config's models. */
  llmBaseUrl?: string;
  engine: ConstructEngineOptions;
  onItem?: PipelineRun['onItem'];
  /** Told as each step ends (not in a dry run). */
  onStep?: PipelineRun['onStep'];
}

/** Runs every step of a pipeline config into `spec.out` (a dry run: nothing written). */
export function constructPipeline(
  spec: ConstructPipelineSpec,
): Promise<ConstructOutcome<StepSummary[]>> {
  const { llmBaseUrl, engine, onItem, onStep, ...run } = spec;
  const withUrl = withLimits({ ...engine, ...(llmBaseUrl ? { llmBaseUrl } : {}) }, spec.limits);
  return withModels(withUrl, path.resolve(spec.out), (models, out) =>
    runPipeline(
      {
        ...run,
        out,
        modelFor: (model) => models.modelFor(model),
        ...(onItem && !engine.dryRun ? { onItem } : {}),
        ...(onStep && !engine.dryRun ? { onStep } : {}),
      },
      constructDeps(spec.limits),
    ),
  );
}
