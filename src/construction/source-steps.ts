/**
 * The steps whose output is source records: `import` (tau2 tasks executed, or trajectory files),
 * `augment` (B.1) and `check` (B.2). run-step.ts runs them like every other step.
 */
import { FileResolver } from '../dataset/files.js';
import { UsageError } from '../errors.js';
import { constructAugment } from './augment.js';
import { sourceAttachments, type MetaLine } from './case-record.js';
import { checkSources } from './check.js';
import { importEnvironment } from './import-environment.js';
import { readTrajectories } from './inputs.js';
import type { StepOutput } from './output.js';
import { REAL_TRAFFIC_SOURCES, removePii } from './pii.js';
import type { ReviewSummary } from './review.js';
import type { StepDeps, StepRun } from './step-run.js';
import type { SourceRecord } from './source-record.js';
import type { StepSpec } from './step-spec.js';
import type { StepContext } from './step.js';
import { readSources } from './store.js';

/** What a step made, before its provenance header. */
export type Made = Omit<StepOutput, 'header'> & { review_summary?: ReviewSummary | null };

/** The one input directory of a step that reads one. */
export function only(inputs: readonly string[], step: string): string {
  if (inputs.length !== 1)
    throw new UsageError(`construct ${step} reads one --in directory (got ${inputs.length})`);
  return inputs[0]!;
}

export async function importStep(
  spec: Extract<StepSpec, { step: 'import' }>,
  run: StepRun,
  deps: StepDeps,
): Promise<Made> {
  if (spec.from === 'tau2' && run.inputs.length > 0)
    throw new UsageError(
      "construct import --from tau2 reads the tasks of apb exec's environments (data/tau2 of this installation): leave out --in",
    );
  if (spec.from === 'trajectories') {
    if (run.inputs.length === 0)
      throw new UsageError(
        'construct import --from trajectories needs --in FILE|DIR (JSONL of chat messages)',
      );
    const read = await readTrajectories(run.inputs, run.limits);
    const scrubbed = read.records.map((record) =>
      (spec.remove_pii ?? REAL_TRAFFIC_SOURCES.includes(record.source ?? ''))
        ? removePii(record)
        : { record, found: null },
    );
    const { attachments } = read;
    const records = scrubbed.map((item) => item.record);
    const meta: MetaLine[] = scrubbed.map(({ record, found }) => ({
      id: record.id,
      step: 'import',
      seed: run.seed,
      parent_id: null,
      generated: {
        from: 'trajectories',
        tool_returns: record.tool_returns,
        ...(found ? { pii_removed: found } : {}),
      },
      model: null,
      prompt_version: null,
    }));
    return { cases: [], skipped: [], sources: { records, meta, attachments } };
  }
  const made = spec.domains.map((domain) =>
    importEnvironment(
      deps.environment(`tau2:${domain}`),
      { taskSplit: spec.task_split === 'all' ? undefined : spec.task_split, execute: spec.execute },
      run.seed,
    ),
  );
  return {
    cases: [],
    skipped: made.flatMap((item) => item.skipped),
    sources: {
      records: made.flatMap((item) => item.records),
      meta: made.flatMap((item) => item.meta),
      attachments: [],
    },
  };
}

export async function augmentStep(
  spec: Extract<StepSpec, { step: 'augment' }>,
  run: StepRun,
  context: StepContext,
): Promise<Made> {
  if (!run.model)
    throw new UsageError(
      'construct augment needs --llm SPEC: B.1 enriches queries, adds tools and simulates the extended trajectory with a model (the paper used Claude Sonnet 4.5); there is no deterministic augmentation',
    );
  const read = await readSources(only(run.inputs, 'augment'), { limits: context.limits });
  const made = await constructAugment(read.records, context, {
    addSteps: spec.add_steps,
    addTools: spec.add_tools,
    targetSteps: spec.target_steps,
  });
  const attachments = made.records.flatMap((record) => sourceAttachments(record, read.root));
  return {
    cases: [],
    skipped: read.skipped,
    sources: { records: made.records, meta: made.meta, attachments },
  };
}

export async function checkStep(run: StepRun, context: StepContext): Promise<Made> {
  const input = only(run.inputs, 'check');
  const read = await readSources(input, { limits: context.limits });
  const result = await checkSources(
    read.records,
    {
      resolver: new FileResolver(read.root, context.limits),
      file: read.file,
      lines: read.lines,
    },
    context,
  );
  const attachments = result.kept.flatMap((record: SourceRecord) =>
    sourceAttachments(record, read.root),
  );
  return {
    cases: [],
    skipped: read.skipped,
    sources: { records: result.kept, meta: result.meta, attachments },
    rejected: result.rejected,
    review: result.review,
  };
}
