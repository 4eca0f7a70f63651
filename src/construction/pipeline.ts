/**
 * `apb construct pipeline --config FILE`: steps chained, each written to `OUT/steps/<id>/` exactly
 * as the step alone would write it, then every case-producing step's splits joined into `OUT` (the
 * released layout, its meta lines and attachments). A step reads the outputs of earlier steps: by
 * id when its `in` names them, otherwise the defaults of docs/construction.md ("pipeline").
 */
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { ConstructionModel } from './model.js';
import { runStep, type StepDeps, type StepSummary } from './run-step.js';
import { StepSpecSchema, type StepSpec } from './step-spec.js';
import { lockOutput, mergeStepOutputs, prepareOutput } from './output.js';

/** A pipeline config (JSON or YAML): a seed, an optional model, and the steps in order. */
export const PipelineConfigSchema = z
  .object({
    seed: z.number().int().nonnegative().default(1),
    out: z.string().min(1).optional(),
    /** The model of every step that can use one, unless a step says otherwise (`llm: false` or a spec). */
    llm: z.string().min(1).optional(),
    llm_base_url: z.string().min(1).optional(),
    steps: z.array(StepSpecSchema).min(1),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfigSchema>;

/** How a pipeline runs: where, with which models, and how to resolve plain paths. */
export interface PipelineRun {
  config: PipelineConfig;
  out: string;
  /** Folder plain `in` paths and pools are relative to (the config file's). */
  baseDir: string;
  /** The model for a spec (null: no model). */
  modelFor(spec: string | null): ConstructionModel | undefined;
  /** A keyword input such as `sample`, resolved to a directory (undefined: not a keyword). */
  keyword?(name: string): string | undefined;
  onStep?(summary: StepSummary, index: number): void;
  onItem?(step: StepSpec['step'], done: number, total: number): void;
  /** The caps every step reads its inputs under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

const SOURCE_STEPS = new Set(['import', 'augment', 'check']);
const READS_SOURCES = new Set(['augment', 'check', 'holistic', 'cuts', 'broken']);
const DEFAULT_PARENTS: Record<string, string[]> = {
  extraneous: ['holistic', 'cuts'],
  unsolvable: ['holistic'],
  efficiency: ['holistic'],
};
const USES_MODEL = new Set([
  'augment',
  'check',
  'holistic',
  'extraneous',
  'broken',
  'unsolvable',
  'efficiency',
]);

/** Each step's id: its own, else `NN-step`; duplicates are refused. */
export function stepIds(steps: readonly StepSpec[]): string[] {
  const ids = steps.map(
    (spec, index) => spec.id ?? `${String(index + 1).padStart(2, '0')}-${spec.step}`,
  );
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new UsageError(`pipeline step id "${duplicate}" is used twice`);
  return ids;
}

/** The inputs of step `index`: named ones (earlier ids or paths), else the defaults. */
function inputsOf(run: PipelineRun, ids: readonly string[], index: number): string[] {
  const spec = run.config.steps[index]!;
  const earlier = run.config.steps.slice(0, index).map((step, position) => ({
    step: step.step,
    dir: path.join(run.out, 'steps', ids[position]!),
  }));
  if (spec.in) {
    return spec.in.map((name) => {
      const position = ids.slice(0, index).indexOf(name);
      if (position >= 0) return earlier[position]!.dir;
      if (ids.includes(name))
        throw new UsageError(`pipeline step ${ids[index]} reads "${name}", which runs after it`);
      const keyword = run.keyword?.(name);
      return keyword ?? path.resolve(run.baseDir, name);
    });
  }
  if (READS_SOURCES.has(spec.step)) {
    const last = [...earlier].reverse().find((item) => SOURCE_STEPS.has(item.step));
    if (!last)
      throw new UsageError(
        `pipeline step ${ids[index]} (${spec.step}) needs source records: put an import step before it, or give "in"`,
      );
    return [last.dir];
  }
  const parents = DEFAULT_PARENTS[spec.step];
  if (!parents) return [];
  const dirs = earlier.filter((item) => parents.includes(item.step)).map((item) => item.dir);
  if (dirs.length === 0)
    throw new UsageError(
      `pipeline step ${ids[index]} (${spec.step}) needs cases from a ${parents.join(' or ')} step before it, or "in"`,
    );
  return dirs;
}

function modelSpecOf(run: PipelineRun, spec: StepSpec): string | null {
  if (!USES_MODEL.has(spec.step) || spec.llm === false) return null;
  if (typeof spec.llm === 'string') return spec.llm;
  return run.config.llm ?? null;
}

/** Paths a step names besides its inputs (pools, runs) resolved against the config's folder. */
function withResolvedPaths(spec: StepSpec, baseDir: string): StepSpec {
  if (spec.step === 'extraneous')
    return { ...spec, pool: spec.pool.map((file) => path.resolve(baseDir, file)) };
  if (spec.step === 'efficiency')
    return { ...spec, solved_by: spec.solved_by.map((dir) => path.resolve(baseDir, dir)) };
  return spec;
}

/** A step that cannot run without a model is refused before the first step runs. */
function requireModels(run: PipelineRun, ids: readonly string[]): void {
  run.config.steps.forEach((spec, index) => {
    if (spec.step === 'augment' && modelSpecOf(run, spec) === null)
      throw new UsageError(
        `pipeline step ${ids[index]} (augment) needs a model: give --llm SPEC or "llm" in the config (B.1 has no deterministic augmentation)`,
      );
  });
}

/** Runs every step, then joins their outputs into `run.out`, holding the output's lock throughout. */
export async function runPipeline(run: PipelineRun, deps: StepDeps): Promise<StepSummary[]> {
  const ids = stepIds(run.config.steps);
  requireModels(run, ids);
  const lock = lockOutput(run.out, [], 'construct pipeline');
  try {
    return await runSteps(run, deps, ids);
  } finally {
    lock.release();
  }
}

async function runSteps(
  run: PipelineRun,
  deps: StepDeps,
  ids: readonly string[],
): Promise<StepSummary[]> {
  prepareOutput(run.out, []);
  const summaries: StepSummary[] = [];
  const stepDirs: string[] = [];
  for (const [index, spec] of run.config.steps.entries()) {
    const out = path.join(run.out, 'steps', ids[index]!);
    const inputs = inputsOf(run, ids, index);
    const model = run.modelFor(modelSpecOf(run, spec));
    const recorded = {
      spec,
      inputs: spec.in ?? inputs.map((dir) => path.relative(path.join(run.out, 'steps'), dir)),
    };
    const onItem =
      run.onItem && model
        ? (done: number, total: number) => run.onItem!(spec.step, done, total)
        : undefined;
    const summary = await runStep(
      {
        spec: withResolvedPaths(spec, run.baseDir),
        inputs,
        out,
        seed: spec.seed ?? run.config.seed,
        model,
        onItem,
        recorded,
        limits: run.limits,
      },
      deps,
    );
    summaries.push(summary);
    stepDirs.push(out);
    run.onStep?.(summary, index);
  }
  mergeStepOutputs(run.out, stepDirs, {
    apb_construct: 1,
    pipeline: {
      ...run.config,
      out: undefined,
      steps: run.config.steps.map((spec, index) => ({ id: ids[index], ...spec })),
    },
    steps: summaries.map((summary, index) => ({
      id: ids[index],
      step: summary.step,
      cases: summary.cases,
      sources: summary.sources,
      rejected: summary.rejected,
      skipped: summary.skipped,
    })),
  });
  return summaries;
}
