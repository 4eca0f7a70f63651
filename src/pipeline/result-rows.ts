/**
 * Judgement lines → `ResultRow`s, for our lines (with `apb`) and the official harness's (without),
 * and the streaming reader of a `judgements.jsonl`. Everything but `readResultRows` is pure.
 * Parsing rules and facet derivations: docs/metrics.md ("Reading judgement lines").
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
import { ApbError, type InputIssue } from '../errors.js';
import { readLines } from '../jsonl-lines.js';
import { NO_ERRORS, snapGrade, type BrokenBehavior, type ErrorFlags } from '../judge/verdict.js';
import {
  behaviorOf,
  checkRunFileValue,
  officialBoolean,
  officialErrorList,
  officialGrade,
  OfficialJudgementLineSchema,
  firstIssue,
  readJudgement,
} from '../rundir/schemas/index.js';
import type {
  CallRecord,
  FailureReason,
  ResultRow,
  RowFindings,
  RowRefinement,
} from '../metrics/result-row.js';
import { parseUntrustedJson } from '../json-depth.js';

type Loose = Record<string, unknown>;

/** A judgement line that cannot become a `ResultRow`; `field` names the offending key. */
export class ResultLineError extends ApbError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('result-line', `${field}: ${message}`);
  }
}

const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;
const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A grade snapped to the grid when it is a number in [0, 1]; null otherwise. */
export function gradeOf(value: unknown): number | null {
  const grade = officialGrade(value);
  return grade === null ? null : snapGrade(grade);
}

/** E1..E6 flags from six strict booleans (true/false or 1/0); anything else gives no flags. */
export function errorFlagsOf(value: unknown): ErrorFlags {
  return (officialErrorList(value) ?? [...NO_ERRORS]) as ErrorFlags;
}

/** The behaviour a judgement records: `behavior`, or the legacy evaluator's `category_name` / `category`. */
export function behaviorField(judgement: Loose): BrokenBehavior | null {
  return readJudgement(judgement).behavior;
}

export { behaviorOf };

/**
 * A line's refinement: the method, and where the line records them, the initial verdict and the
 * critiques (apb refine's shape).
 */
function refinementOf(value: unknown): RowRefinement | null {
  const object = asObject(value);
  if (!object || (object.mode !== 'self' && object.mode !== 'critic')) return null;
  const refinement: RowRefinement = {
    mode: object.mode,
    taxonomy: officialBoolean(object.taxonomy ?? object.metric) ?? false,
    critic: object.mode === 'critic' ? stringOrNull(object.critic) : null,
  };
  if (typeof object.rounds === 'number' && Number.isInteger(object.rounds) && object.rounds > 0)
    refinement.rounds = object.rounds;
  const initial = asObject(object.initial);
  const initialCorrect = officialBoolean(initial?.is_correct);
  // Only a readable verdict is a base: a judge error on the initial answer leaves the row to pair otherwise.
  // As `isCorrect` reads a row: a planner error is never correct; a parse error keeps a verdict that credits it.
  if (initial && initialCorrect !== undefined && initial.judge_status !== 'judge_error')
    refinement.initial = {
      correct: initialCorrect && initial.status !== 'error',
      grade: gradeOf(initial.grade) ?? null,
    };
  if (Array.isArray(object.critiques))
    refinement.critiques = object.critiques
      .map((entry) => asObject(entry)?.text)
      .filter((text): text is string => typeof text === 'string');
  return refinement;
}

/** Decodes a `*_json` field (a JSON string or an already-decoded list), keeping the entries the schema accepts. */
function decodeList<T>(value: unknown, schema: z.ZodType<T>): T[] {
  let decoded = value;
  if (typeof value === 'string') {
    try {
      decoded = parseUntrustedJson(value);
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

/** Facets of a line that carries none (an official-harness line), derived leniently from its dataset fields. */
export function derivedFacets(line: Loose, split: SplitName): Facets {
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
    trajectoryPrefix: decodeList(line.trajectory_prefix_json, TrajectoryEntrySchema).flatMap(
      normalizeTrajectoryEntry,
    ),
    horizon,
  };
  const reference: CaseReference = {
    plan: stringOrNull(line.plan),
    toolChain: decodeList(line.tool_chain_json, ChainNodeSchema).map((node) =>
      normalizeChainNode(node as Loose),
    ),
    groundTruthSteps: decodeList(line.ground_truth_steps_json, ReferenceStepSchema).map((step) =>
      normalizeReferenceStep(step as Loose),
    ),
    remainingSteps: decodeList(line.reference_remaining_steps_json, ReferenceStepSchema).map(
      (step) => normalizeReferenceStep(step as Loose),
    ),
    unsolvableType: oneOf(UNSOLVABLE_TYPES, line.unsolvable_type),
    extraneousToolNames: decodeList(line.extraneous_tool_names_json, z.string()),
    brokenToolName: stringOrNull(line.broken_tool_name),
    replacementTool: null,
  };
  return facetsOf(record, input, reference);
}

function facetsFrom(value: unknown): Facets | null {
  const object = asObject(value);
  return object &&
    SPLITS.includes(object.split as SplitName) &&
    typeof object.baseCaseKey === 'string'
    ? (object as unknown as Facets)
    : null;
}

/**
 * The call fields a prediction or judge record carries (`latency_ms`, `attempts`, `cached`), or
 * null when it has none.
 */
function callRecordOf(record: Record<string, unknown> | null): CallRecord | null {
  if (!record || typeof record.attempts !== 'number') return null;
  return {
    latencyMs:
      typeof record.latency_ms === 'number' && record.cached !== true ? record.latency_ms : null,
    attempts: record.attempts,
    cached: record.cached === true,
  };
}

/** A short text for grouping: numbers, quoted strings and ids collapse, so alike failures share a key. */
function reasonText(message: string): string {
  return message
    .replace(/"[^"]*"|'[^']*'/g, '…')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
}

/**
 * Why a line failed, as a grouping key and an example message (planner failures first: they leave
 * the judge nothing).
 */
export function failureReasonOf(
  plannerStatus: ResultRow['plannerStatus'],
  judgeStatus: ResultRow['judgeStatus'],
  prediction: Record<string, unknown> | null,
  apb: Record<string, unknown> | null,
): FailureReason | null {
  if (plannerStatus === 'error') {
    const error = asObject(prediction?.error);
    const status = typeof error?.status === 'number' ? ` ${error.status}` : '';
    const message = typeof error?.message === 'string' ? error.message : 'no message recorded';
    return {
      key: `planner ${typeof error?.kind === 'string' ? error.kind : 'error'}${status}`,
      message,
    };
  }
  if (plannerStatus === 'parse_error') {
    const message =
      typeof prediction?.parse_error === 'string'
        ? prediction.parse_error
        : 'the answer could not be read';
    return { key: `parse: ${reasonText(message)}`, message };
  }
  if (judgeStatus === 'judge_error') {
    const error = asObject(apb?.judge_error);
    const message = typeof error?.message === 'string' ? error.message : 'no readable verdict';
    return { key: `judge ${typeof error?.reason === 'string' ? error.reason : 'error'}`, message };
  }
  return null;
}

/** The findings a row keeps (`RowFindings`), copied out of a line's full findings so the rest can be freed. */
function rowFindingsOf(findings: Record<string, unknown> | null): RowFindings | null {
  if (!findings) return null;
  const use = asObject(findings.distractorUse);
  const refusal = asObject(findings.refusal);
  const cost = asObject(findings.planCost);
  return {
    distractorUse:
      use && typeof use.count === 'number'
        ? {
            names: Array.isArray(use.names)
              ? use.names.filter((name): name is string => typeof name === 'string')
              : [],
            count: use.count,
          }
        : null,
    refusal: refusal ? { refused: refusal.refused === true } : null,
    planCost:
      cost && typeof cost.predictedSteps === 'number'
        ? {
            predictedSteps: cost.predictedSteps,
            referenceSteps: typeof cost.referenceSteps === 'number' ? cost.referenceSteps : 0,
            predictedCost: typeof cost.predictedCost === 'number' ? cost.predictedCost : null,
            referenceCost: typeof cost.referenceCost === 'number' ? cost.referenceCost : null,
          }
        : null,
  };
}

/** Checks a line against its schema: ours (with `apb`) strictly, the official harness's through its adapter. */
function checkedLine(line: Loose): void {
  if (line.id === undefined || line.id === null || line.id === '')
    throw new ResultLineError('id', 'missing');
  if (!SPLITS.includes(line.split as SplitName))
    throw new ResultLineError('split', `unknown split ${JSON.stringify(line.split)}`);
  if (line.apb === undefined) {
    const parsed = OfficialJudgementLineSchema.safeParse(line);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error);
      throw new ResultLineError(issue.field, issue.message);
    }
    return;
  }
  const checked = checkRunFileValue('judgements', line);
  if (!checked.ok) throw new ResultLineError(checked.field, checked.message);
}

/**
 * One judgement line (ours or the official harness's) as a `ResultRow`; throws `ResultLineError`
 * when it cannot be one.
 */
export function rowFromJudgementLine(line: Record<string, unknown>): ResultRow {
  checkedLine(line);
  const split = line.split as SplitName;
  const apb = asObject(line.apb);
  const prediction = asObject(apb?.prediction);
  const judgement = readJudgement(line.judgement);
  const plannerStatus =
    prediction?.status === 'error' || prediction?.status === 'parse_error'
      ? prediction.status
      : 'ok';
  const plannerFailed = plannerStatus !== 'ok';
  const verdict = judgement.isCorrect ?? undefined;
  // A failed planner needs no verdict: only an explicit judge_error counts as one there.
  const judgeStatus =
    apb?.status === 'judge_error' || (!plannerFailed && verdict === undefined)
      ? 'judge_error'
      : 'ok';
  const grade =
    judgeStatus === 'judge_error' ? null : (gradeOf(judgement.grade) ?? (plannerFailed ? 0 : null));
  const refused = judgement.refused ?? undefined;
  return {
    id: String(line.id),
    model: typeof line.tested_model === 'string' ? line.tested_model : '',
    judge: typeof line.judge_model === 'string' ? line.judge_model : '',
    repeat: typeof prediction?.repeat === 'number' ? prediction.repeat : 0,
    facets: facetsFrom(prediction?.facets) ?? derivedFacets(line, split),
    plannerStatus,
    judgeStatus,
    // A parse error keeps its verdict: a reasoned prose answer may be judged correct (guarded at judging time).
    correct: plannerStatus !== 'error' && judgeStatus === 'ok' && verdict === true,
    grade,
    errors: ((judgeStatus === 'ok' && judgement.errors) || [...NO_ERRORS]) as ErrorFlags,
    behavior: judgeStatus === 'ok' ? judgement.behavior : null,
    refused: refused === undefined || judgeStatus !== 'ok' ? null : refused,
    findings: rowFindingsOf(asObject(apb?.findings)),
    usage: {
      planner: (asObject(prediction?.usage) as ResultRow['usage']['planner']) ?? null,
      judge: (asObject(apb?.usage) as ResultRow['usage']['judge']) ?? null,
    },
    calls: { planner: callRecordOf(prediction), judge: callRecordOf(apb) },
    datasetLine: typeof prediction?.dataset_line === 'number' ? prediction.dataset_line : null,
    failure: failureReasonOf(plannerStatus, judgeStatus, prediction, apb),
    promptVersion: stringOrNull(prediction?.prompt_version),
    judgePromptVersion: stringOrNull(apb?.judge_prompt_version),
    refinement: refinementOf(apb?.refinement ?? prediction?.refinement),
  };
}

/** What `readResultRows` found in a judgements file. */
export interface ResultRowsRead {
  rows: ResultRow[];
  /** Every line that is not a usable judgement, as FILE:LINE: field: message. */
  issues: InputIssue[];
  /** Line number of an unreadable last line (a write cut short), skipped without an issue; null when none. */
  tornLastLine: number | null;
  /** The parsed lines themselves, in file order (only with `keepLines`), e.g. for the official groups. */
  lines: Record<string, unknown>[];
}

/**
 * Streams a `judgements.jsonl` into rows; a torn last line is skipped, every other bad line is
 * reported with file:line. `onRow` sees each line that gave a row, with its byte position in the
 * file.
 */
export async function readResultRows(
  file: string,
  options: {
    keepLines?: boolean;
    onRow?: (
      row: ResultRow,
      line: Record<string, unknown>,
      at: { offset: number; bytes: number },
    ) => void;
  } = {},
): Promise<ResultRowsRead> {
  const result: ResultRowsRead = { rows: [], issues: [], tornLastLine: null, lines: [] };
  let pending: InputIssue | null = null;
  for await (const { line: lineNumber, text, offset, bytes } of readLines(file)) {
    if (pending) result.issues.push(pending);
    pending = null;
    let json: unknown;
    try {
      json = parseUntrustedJson(text);
    } catch (error) {
      pending = {
        file,
        line: lineNumber,
        field: '(line)',
        message: `invalid JSON: ${(error as Error).message}`,
      };
      continue;
    }
    const line = asObject(json);
    if (!line) {
      result.issues.push({
        file,
        line: lineNumber,
        field: '(line)',
        message: 'expected a JSON object',
      });
      continue;
    }
    if (options.keepLines) result.lines.push(line);
    try {
      const row = rowFromJudgementLine(line);
      result.rows.push(row);
      options.onRow?.(row, line, { offset, bytes });
    } catch (error) {
      if (!(error instanceof ResultLineError)) throw error;
      result.issues.push({
        file,
        line: lineNumber,
        field: error.field,
        message: error.message.slice(error.field.length + 2),
      });
    }
  }
  if (pending) result.tornLastLine = pending.line;
  return result;
}
