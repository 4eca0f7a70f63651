/**
 * Judgement lines → `ResultRow`s, for our lines (with `apb`) and the official harness's (without),
 * and the streaming reader of a `judgements.jsonl`. Everything but `readResultRows` is pure.
 * Parsing rules and facet derivations: docs/metrics.md ("Reading judgement lines").
 */
import { SPLITS, type SplitName } from '../dataset/case.js';
import { ApbError, type InputIssue } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import { readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { NO_ERRORS, type ErrorFlags } from '../judge/verdict.js';
import type { ResultRow } from '../metrics/result-row.js';
import {
  behaviorOf,
  checkRunFileValue,
  OfficialJudgementLineSchema,
  firstIssue,
  readJudgement,
} from '../rundir/schemas/index.js';
import { derivedFacets, facetsFrom } from './derived-facets.js';
import {
  asObject,
  callRecordOf,
  failureReasonOf,
  gradeOf,
  refinementOf,
  rowFindingsOf,
  stringOrNull,
  type Loose,
} from './row-fields.js';

export { behaviorOf, derivedFacets };
export { behaviorField, errorFlagsOf, failureReasonOf, gradeOf } from './row-fields.js';

/** A judgement line that cannot become a `ResultRow`; `field` names the offending key. */
export class ResultLineError extends ApbError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('result-line', `${field}: ${message}`);
  }
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
 * One judgement line (ours or the official harness's) as a `ResultRow` (dataset fields of a line
 * without facets read under `jsonDepth`); throws `ResultLineError` when it cannot be one.
 */
export function rowFromJudgementLine(line: Record<string, unknown>, jsonDepth?: number): ResultRow {
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
    facets: facetsFrom(prediction?.facets) ?? derivedFacets(line, split, jsonDepth),
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

/** How `readResultRows` reads: what it keeps, who sees each row, under which caps. */
export interface ResultRowsOptions {
  keepLines?: boolean;
  onRow?: (
    row: ResultRow,
    line: Record<string, unknown>,
    at: { offset: number; bytes: number },
  ) => void;
  /** The caps lines are read under (line and nesting); default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

/**
 * Streams a `judgements.jsonl` into rows; a torn last line is skipped, every other bad line is
 * reported with file:line. `onRow` sees each line that gave a row, with its byte position in the
 * file.
 */
export async function readResultRows(
  file: string,
  options: ResultRowsOptions = {},
): Promise<ResultRowsRead> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const result: ResultRowsRead = { rows: [], issues: [], tornLastLine: null, lines: [] };
  let pending: InputIssue | null = null;
  for await (const { line: lineNumber, text, offset, bytes } of readLines(
    file,
    undefined,
    limits,
  )) {
    if (pending) result.issues.push(pending);
    pending = null;
    let json: unknown;
    try {
      json = parseUntrustedJson(text, limits.jsonDepth);
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
      const row = rowFromJudgementLine(line, limits.jsonDepth);
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
