/**
 * The fields of a judgement line that `rowFromJudgementLine` reads leniently, each on its own: grade,
 * flags, behaviour, refinement, call records, failure reason and the findings a row keeps.
 */
import { NO_ERRORS, snapGrade, type BrokenBehavior, type ErrorFlags } from '../judge/verdict.js';
import type {
  CallRecord,
  FailureReason,
  ResultRow,
  RowFindings,
  RowRefinement,
} from '../metrics/result-row.js';
import {
  officialBoolean,
  officialErrorList,
  officialGrade,
  readJudgement,
} from '../rundir/schemas/index.js';

export type Loose = Record<string, unknown>;

export const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;
export const stringOrNull = (value: unknown): string | null =>
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

/**
 * A line's refinement: the method, and where the line records them, the initial verdict and the
 * critiques (apb refine's shape).
 */
export function refinementOf(value: unknown): RowRefinement | null {
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

/**
 * The call fields a prediction or judge record carries (`latency_ms`, `attempts`, `cached`), or
 * null when it has none.
 */
export function callRecordOf(record: Record<string, unknown> | null): CallRecord | null {
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
export function rowFindingsOf(findings: Record<string, unknown> | null): RowFindings | null {
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
