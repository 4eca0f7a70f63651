/**
 * Facets of a judgement line that carries none (an official-harness line), derived leniently from
 * its dataset fields without touching the filesystem; and the facets a line of ours records.
 */
import { z } from 'zod';
import {
  MODALITIES,
  SPLITS,
  SPLIT_REGIME,
  STAGES,
  UNSOLVABLE_TYPES,
  type CaseFile,
  type CaseInput,
  type CaseReference,
  type Facets,
  type Horizon,
  type SplitName,
} from '../dataset/case.js';
import { facetsOf } from '../dataset/facets.js';
import {
  normalizeChainNode,
  normalizeReferenceStep,
  normalizeTrajectoryEntry,
} from '../dataset/normalize.js';
import {
  ChainNodeSchema,
  ReferenceStepSchema,
  TrajectoryEntrySchema,
  type RawRecord,
} from '../dataset/record-schema.js';
import { parseUntrustedJson } from '../json-depth.js';
import { asObject, stringOrNull, type Loose } from './row-fields.js';

/** Decodes a `*_json` field (a JSON string or an already-decoded list), keeping the entries the schema accepts. */
function decodeList<T>(value: unknown, schema: z.ZodType<T>, maxDepth?: number): T[] {
  let decoded = value;
  if (typeof value === 'string') {
    try {
      decoded = parseUntrustedJson(value, maxDepth);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(decoded)) return [];
  return decoded.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'webm', 'mov', 'avi', 'mkv']);
const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'json',
  'jsonl',
  'csv',
  'tsv',
  'xml',
  'html',
  'yaml',
  'yml',
]);

/**
 * A `files` entry as a `CaseFile` without touching the filesystem: kind from the extension, else
 * from an image-like `type`.
 */
function fileOf(entry: unknown): CaseFile | null {
  const object = asObject(entry);
  const path = typeof entry === 'string' ? entry : stringOrNull(object?.path);
  if (!path) return null;
  const label = stringOrNull(object?.type);
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  let kind: CaseFile['kind'] = 'other';
  if (IMAGE_EXTENSIONS.has(extension)) kind = 'image';
  else if (VIDEO_EXTENSIONS.has(extension)) kind = 'video';
  else if (TEXT_EXTENSIONS.has(extension)) kind = 'text';
  else if (label && /image|screenshot|frame/i.test(label)) kind = 'image';
  return {
    path,
    absolutePath: path,
    kind,
    mimeType: 'application/octet-stream',
    label,
    sha256: '',
    bytes: 0,
  };
}

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | null =>
  values.includes(value as T) ? (value as T) : null;

/**
 * Facets of a line that carries none (an official-harness line), derived leniently from its
 * dataset fields (JSON strings read under `jsonDepth`, the JSON cap).
 */
export function derivedFacets(line: Loose, split: SplitName, jsonDepth?: number): Facets {
  const list = <T>(value: unknown, schema: z.ZodType<T>) => decodeList(value, schema, jsonDepth);
  const step = (entry: unknown) => normalizeReferenceStep(entry as Loose, jsonDepth);
  const horizonValue = line.prediction_horizon;
  const horizon =
    horizonValue === 1 || horizonValue === 2 || horizonValue === 3
      ? (horizonValue as Horizon)
      : null;
  const steps =
    typeof line.steps === 'number' && Number.isInteger(line.steps) && line.steps >= 0
      ? line.steps
      : null;
  const record = {
    id: String(line.id),
    split,
    query: typeof line.query === 'string' ? line.query : '',
    source: stringOrNull(line.source),
    source_subset: stringOrNull(line.source_subset),
    task_family: stringOrNull(line.task_family),
    task_category: stringOrNull(line.task_category),
    stage: oneOf(STAGES, line.stage),
    modality: oneOf(MODALITIES, line.modality),
    base_case_id: stringOrNull(line.base_case_id),
    steps,
  } as RawRecord;
  const input: CaseInput = {
    regime: SPLIT_REGIME[split],
    query: record.query,
    systemPrompt: null,
    tools: [],
    files: (Array.isArray(line.files) ? line.files : [])
      .map(fileOf)
      .filter((file): file is CaseFile => file !== null),
    trajectoryPrefix: list(line.trajectory_prefix_json, TrajectoryEntrySchema).flatMap((entry) =>
      normalizeTrajectoryEntry(entry, jsonDepth),
    ),
    horizon,
  };
  const reference: CaseReference = {
    plan: stringOrNull(line.plan),
    toolChain: list(line.tool_chain_json, ChainNodeSchema).map((node) =>
      normalizeChainNode(node as Loose, jsonDepth),
    ),
    groundTruthSteps: list(line.ground_truth_steps_json, ReferenceStepSchema).map(step),
    remainingSteps: list(line.reference_remaining_steps_json, ReferenceStepSchema).map(step),
    unsolvableType: oneOf(UNSOLVABLE_TYPES, line.unsolvable_type),
    extraneousToolNames: list(line.extraneous_tool_names_json, z.string()),
    brokenToolName: stringOrNull(line.broken_tool_name),
    replacementTool: null,
  };
  return facetsOf(record, input, reference);
}

export function facetsFrom(value: unknown): Facets | null {
  const object = asObject(value);
  return object &&
    SPLITS.includes(object.split as SplitName) &&
    typeof object.baseCaseKey === 'string'
    ? (object as unknown as Facets)
    : null;
}
