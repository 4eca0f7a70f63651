/**
 * Facets: what the breakdowns group by, derived once per case. Fields the release lacks (stage,
 * modality, base case) come from the optional record fields when present, otherwise from the
 * rules below, documented in docs/metrics.md ("Facets").
 */
import { createHash } from 'node:crypto';
import type {
  CaseFile,
  CaseInput,
  CaseReference,
  Facets,
  Modality,
  SplitName,
  Stage,
} from './case.js';
import { SPLIT_REGIME } from './case.js';
import type { RawRecord } from './record-schema.js';

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Text, image or video: video when any file is a video or a frame sequence, image when any is an image. */
export function modalityOf(files: CaseFile[]): Modality {
  if (files.some((file) => file.kind === 'video' || /video|frame/i.test(file.label ?? '')))
    return 'video';
  if (files.some((file) => file.kind === 'image')) return 'image';
  return 'text';
}

/**
 * Early, middle or late: where the cut falls in the reference trajectory, as the share of
 * assistant steps already executed, snapped to the nearest of the legacy cut points 0.25 / 0.5 / 0.75.
 */
export function stageOf(input: CaseInput, reference: CaseReference): Stage | null {
  if (input.regime !== 'Step-wise') return null;
  const done = input.trajectoryPrefix.filter((message) => message.role === 'assistant').length;
  const total = done + reference.remainingSteps.length;
  if (total === 0) return null;
  const ratio = done / total;
  if (ratio < 0.375) return 'early';
  if (ratio <= 0.625) return 'middle';
  return 'late';
}

/**
 * The key that pairs a robustness variant with its base case. An explicit `base_case_id` wins;
 * otherwise holistic cases share a key when their queries match (extraneous variants keep the
 * query) and step-wise cases when query, executed prefix and horizon match.
 */
export function baseCaseKeyOf(record: RawRecord, input: CaseInput): string {
  if (record.base_case_id) return `id:${record.base_case_id}`;
  const query = input.query.trim().replace(/\s+/g, ' ');
  if (input.regime === 'Holistic') return `holistic:${shortHash(query)}`;
  const prefix = input.trajectoryPrefix.map((message) => [
    message.role,
    message.toolCalls.map((call) => call.name),
  ]);
  return `step-wise:${shortHash(JSON.stringify([query, prefix, input.horizon]))}`;
}

const isExtraneous = (split: SplitName) => split.endsWith('tool_extraneous');

/** Derives every facet of a case. */
export function facetsOf(record: RawRecord, input: CaseInput, reference: CaseReference): Facets {
  const split = record.split;
  const referenceSteps =
    record.steps ??
    (reference.toolChain.length ||
      input.trajectoryPrefix.filter((message) => message.role === 'assistant').length +
        reference.remainingSteps.length);
  return {
    split,
    regime: SPLIT_REGIME[split],
    source: record.source ?? null,
    sourceSubset: record.source_subset ?? null,
    taskFamily: record.task_family ?? null,
    taskCategory: record.task_category ?? null,
    horizon: input.horizon,
    stage: record.stage ?? stageOf(input, reference),
    distractorLevel: isExtraneous(split) ? reference.extraneousToolNames.length : null,
    unsolvableType: reference.unsolvableType,
    modality: record.modality ?? modalityOf(input.files),
    referenceSteps,
    baseCaseKey: baseCaseKeyOf(record, input),
  };
}
