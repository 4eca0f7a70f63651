/**
 * One construction step end to end: its inputs read (and validated), the step's library function
 * run, its output written in the released layout. `apb construct STEP` and the pipeline both come
 * through here, so a step behaves the same alone and chained.
 */
import { SPLITS, type Case, type SplitName, type UnsolvableType } from '../dataset/case.js';
import { UsageError } from '../errors.js';
import type { Limits } from '../limits.js';
import { APB_VERSION } from '../version.js';
import type { Rejection } from './check.js';
import { constructBroken } from './broken.js';
import { constructCuts } from './cuts.js';
import { constructEfficiency, keepSolvedBy } from './efficiency.js';
import { constructExtraneous } from './extraneous.js';
import { constructHolistic } from './holistic.js';
import { readPool } from './inputs.js';
import type { ConstructionModel } from './model.js';
import type { ReviewSummary } from './review.js';
import type { StepSpec } from './step-spec.js';
import type { StepContext, StepResult } from './step.js';
import { lockOutput, writeStepOutput } from './output.js';
import { readParentCases, readSources } from './store.js';
import { augmentStep, checkStep, importStep, only, type Made } from './source-steps.js';
import type { StepDeps, StepRun } from './step-run.js';
import { constructUnsolvable, MODEL_TYPES } from './unsolvable.js';

export type { StepDeps, StepRun } from './step-run.js';

/** What a step wrote, for the summary line. */
export interface StepSummary {
  step: StepSpec['step'];
  out: string;
  cases: Partial<Record<SplitName, number>>;
  sources: number | null;
  rejected: number | null;
  skipped: number;
  review: ReviewSummary | null;
  /** One line per rejected record (`id (stage): first reason`), for the command's output. */
  rejections: string[];
}

const PARENT_SPLITS: Record<'extraneous' | 'unsolvable' | 'efficiency', SplitName[]> = {
  extraneous: ['holistic_planning', 'step_wise_planning'],
  unsolvable: ['holistic_planning'],
  efficiency: ['holistic_planning'],
};

async function parentsOf(
  inputs: readonly string[],
  step: keyof typeof PARENT_SPLITS,
  limits: Limits | undefined,
) {
  if (inputs.length === 0)
    throw new UsageError(`construct ${step} needs --in DIR (a dataset in the released layout)`);
  const cases = (
    await Promise.all(inputs.map((input) => readParentCases(input, PARENT_SPLITS[step], limits)))
  ).flat();
  if (cases.length === 0)
    throw new UsageError(
      `construct ${step}: no ${PARENT_SPLITS[step].join(' or ')} case in ${inputs.join(', ')}`,
    );
  return cases;
}

function unsolvableTypes(
  spec: Extract<StepSpec, { step: 'unsolvable' }>,
  model: ConstructionModel | undefined,
): UnsolvableType[] {
  const types =
    spec.types ??
    (model
      ? ['tool_removal', 'visual_missing', ...MODEL_TYPES]
      : ['tool_removal', 'visual_missing']);
  const needModel = types.filter((type) => MODEL_TYPES.includes(type));
  if (needModel.length > 0 && !model)
    throw new UsageError(
      `unsolvable type(s) ${needModel.join(', ')} need --llm SPEC (only tool_removal and visual_missing are deterministic)`,
    );
  return types;
}

const hasVisual = (parent: Case) =>
  parent.input.files.some((file) => file.kind === 'image' || file.kind === 'video');

async function sourceStep(
  spec: Extract<StepSpec, { step: 'holistic' | 'cuts' | 'broken' }>,
  run: StepRun,
  context: StepContext,
): Promise<Made> {
  const read = await readSources(only(run.inputs, spec.step), {
    ...(spec.reviewed_only === undefined ? {} : { reviewedOnly: spec.reviewed_only }),
    limits: context.limits,
  });
  const sourceContext = { ...context, sourceRoot: read.root };
  let result: StepResult;
  if (spec.step === 'holistic') result = await constructHolistic(read.records, sourceContext);
  else if (spec.step === 'cuts')
    result = constructCuts(
      read.records,
      {
        ratios: spec.ratios,
        horizons: spec.horizons,
        allowUnexecuted: spec.allow_unexecuted,
        completeOnly: spec.complete_only,
        maxParents: spec.max_parents,
      },
      sourceContext,
    );
  else result = await constructBroken(read.records, sourceContext);
  return {
    cases: result.cases,
    skipped: [...read.skipped, ...result.skipped],
    review_summary: read.review,
  };
}

async function caseStep(
  spec: Extract<StepSpec, { step: 'extraneous' | 'unsolvable' | 'efficiency' }>,
  run: StepRun,
  context: StepContext,
  deps: StepDeps,
): Promise<Made> {
  const parents = await parentsOf(run.inputs, spec.step, context.limits);
  if (spec.step === 'extraneous') {
    const pool = await readPool(spec.pool, context.limits);
    if (!run.model && pool.length === 0)
      throw new UsageError(
        'construct extraneous needs distractors: --pool FILE (deterministic) or --llm SPEC',
      );
    const options = { levels: spec.levels, pool, parentsPerRegime: spec.parents_per_regime };
    return constructExtraneous(parents, options, context);
  }
  if (spec.step === 'unsolvable') {
    if (spec.types?.includes('visual_missing') && !parents.some(hasVisual))
      throw new UsageError(
        `unsolvable type visual_missing needs cases with an image or video (Fig. 17 removes them), and none of the ${parents.length} holistic parents in ${run.inputs.join(', ')} has one (tau2-bench is text-only): leave the type out or add image cases (e.g. "in": ["sample"])`,
      );
    return constructUnsolvable(parents, unsolvableTypes(spec, run.model), context, spec.parents);
  }
  const result = await constructEfficiency(parents, context);
  if (spec.solved_by.length === 0) return result;
  const runs = await Promise.all(
    spec.solved_by.map(async (runDir) => ({ run: runDir, solved: await deps.solvedBy(runDir) })),
  );
  return keepSolvedBy(result, runs);
}

/** Runs one step and writes its output directory, holding the directory's lock throughout. */
export async function runStep(run: StepRun, deps: StepDeps): Promise<StepSummary> {
  const lock = lockOutput(run.out, run.inputs, `construct ${run.spec.step}`);
  try {
    return await runLocked(run, deps);
  } finally {
    lock.release();
  }
}

async function runLocked(run: StepRun, deps: StepDeps): Promise<StepSummary> {
  const context: StepContext = {
    seed: run.seed,
    model: run.model,
    onItem: run.onItem,
    limits: run.limits,
  };
  const { spec } = run;
  const made =
    spec.step === 'import'
      ? await importStep(spec, run, deps)
      : spec.step === 'augment'
        ? await augmentStep(spec, run, context)
        : spec.step === 'check'
          ? await checkStep(run, context)
          : spec.step === 'holistic' || spec.step === 'cuts' || spec.step === 'broken'
            ? await sourceStep(spec, run, context)
            : await caseStep(spec, run, context, deps);
  const counts: Partial<Record<SplitName, number>> = {};
  for (const split of SPLITS) {
    const count = made.cases.filter((item) => item.split === split).length;
    if (count > 0) counts[split] = count;
  }
  const {
    id: _id,
    in: _in,
    llm: _llm,
    ...options
  } = (run.recorded?.spec ?? spec) as Record<string, unknown>;
  const header = {
    apb_construct: 1,
    apb_version: APB_VERSION,
    step: spec.step,
    seed: run.seed,
    options,
    inputs: run.recorded?.inputs ?? run.inputs,
    model: run.model?.id ?? null,
    counts,
    sources: made.sources?.records.length ?? null,
    rejected: made.rejected?.length ?? null,
    skipped: made.skipped.length,
  };
  writeStepOutput(run.out, { ...made, header }, run.inputs, run.limits);
  return {
    step: spec.step,
    out: run.out,
    cases: counts,
    sources: made.sources?.records.length ?? null,
    rejected: made.rejected?.length ?? null,
    skipped: made.skipped.length,
    review: made.review_summary ?? null,
    rejections: ((made.rejected ?? []) as Rejection[]).map(
      (item) => `${item.id} (${item.stage}): ${item.reasons[0] ?? ''}`,
    ),
  };
}
