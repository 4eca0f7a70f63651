/**
 * One (case, repeat) end to end: prompt → planner → parse → checks → judge, producing the
 * prediction line and the judgement line. Expected failures become data; only an authentication
 * failure or an abort escapes, because those must stop the run.
 */
import type { Case } from '../dataset/case.js';
import { isFatal, ProviderError } from '../errors.js';
import { runChecks, type AnswerText } from '../judge/checks/index.js';
import type { Judge } from '../judge/judge.js';
import type { ProviderResult } from '../providers/provider.js';
import { redact } from '../redact.js';
import { SETTINGS } from '../settings/index.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt, PromptOptions } from '../settings/prompt.js';
import type { Planner } from './planner.js';
import { judgementMeta, recordJudgeResult } from './judge-record.js';
import {
  RESULT_SCHEMA_VERSION,
  type Judgement,
  type JudgementLine,
  type PredictionLine,
  type PredictionMeta,
} from './records.js';

export interface CaseContext {
  planner: Planner;
  judge: Judge;
  promptOptions: PromptOptions;
  signal?: AbortSignal;
  /** The JSON cap answers are read under (`Limits.jsonDepth`); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number | undefined;
}

/** Errors that stop a run (kept here for the pipeline's callers; defined in errors.ts, where refine/ reads it too). */
export { isFatal };

/** Builds the planner prompt of a case (what the planner sees, and what the judge is shown). */
export function plannerPromptOf(caseItem: Case, options: PromptOptions): Prompt {
  return SETTINGS[caseItem.split].buildPrompt(caseItem.input, options);
}

/** Runs the planner for one case and returns its prediction line. */
export async function predict(
  caseItem: Case,
  repeat: number,
  fingerprint: string,
  prompt: Prompt,
  context: CaseContext,
): Promise<PredictionLine> {
  const meta = startingMeta(caseItem, repeat, fingerprint, prompt);
  let result: ProviderResult;
  try {
    result = await context.planner.answer(caseItem, prompt, repeat, context.signal);
  } catch (error) {
    if (isFatal(error) || !(error instanceof ProviderError)) throw error;
    return predictionLine(caseItem, context, '', withCallError(meta, error));
  }
  return predictionLine(
    caseItem,
    context,
    result.text,
    withAnswer(meta, result, caseItem, context.jsonDepth),
  );
}

/** A prediction's record before the call: what it answers, every outcome field still empty. */
function startingMeta(
  caseItem: Case,
  repeat: number,
  fingerprint: string,
  prompt: Prompt,
): PredictionMeta {
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    status: 'ok',
    repeat,
    fingerprint,
    prompt_version: prompt.promptVersion,
    parsed: null,
    usage: null,
    latency_ms: null,
    finish_reason: null,
    attempts: 0,
    cached: false,
    facets: caseItem.facets,
    dataset_line: caseItem.location.line,
  };
}

/** A failed planner call as data: its kind, redacted message and HTTP status. */
function withCallError(meta: PredictionMeta, error: ProviderError): PredictionMeta {
  meta.status = 'error';
  meta.error = {
    kind: error.kind,
    message: redact(error.message),
    ...(error.status ? { status: error.status } : {}),
  };
  return meta;
}

/** The call's usage and timing, and the answer as its setting parses it (or its parse error). */
function withAnswer(
  meta: PredictionMeta,
  result: ProviderResult,
  caseItem: Case,
  jsonDepth: number | undefined,
): PredictionMeta {
  Object.assign(meta, {
    usage: result.usage,
    latency_ms: result.latencyMs,
    finish_reason: result.finishReason,
    attempts: result.attempts,
    cached: result.cached,
    ...(result.batch ? { batch_id: result.batch.id } : {}),
    ...(result.warnings?.length ? { warnings: result.warnings } : {}),
  });
  const setting = SETTINGS[caseItem.split];
  const parsed = setting.parseAnswer(result.text, caseItem.input, jsonDepth);
  if (parsed.kind === 'parse_error') {
    meta.status = 'parse_error';
    meta.parse_error = parsed.message;
  } else meta.parsed = parsed;
  return meta;
}

/** The prediction line: the case's record with the answer and the `apb` block. */
function predictionLine(
  caseItem: Case,
  context: CaseContext,
  modelResponse: string,
  meta: PredictionMeta,
): PredictionLine {
  return {
    ...caseItem.record,
    id: caseItem.id,
    split: caseItem.split,
    tested_model: context.planner.id,
    model_response: modelResponse,
    apb: meta,
  };
}

/**
 * The answer a judge sees, always read afresh from `model_response` (never the stored parse, which
 * a refined or edited line may no longer match), with the text and whether it was cut off.
 */
export function answerOf(
  caseItem: Case,
  prediction: PredictionLine,
  jsonDepth?: number,
): { parsed: ParsedAnswer; text: AnswerText } {
  const raw = typeof prediction.model_response === 'string' ? prediction.model_response : '';
  return {
    parsed: SETTINGS[caseItem.split].parseAnswer(raw, caseItem.input, jsonDepth),
    text: { text: raw, truncated: prediction.apb.finish_reason === 'length' },
  };
}

/** What judging needs of a case context (`apb judge` has no planner). */
export type JudgeContext = Pick<CaseContext, 'judge' | 'signal' | 'jsonDepth'>;

/** Judges a prediction (or records why there is nothing to judge) and returns the judgement line. */
export async function judgePrediction(
  caseItem: Case,
  prediction: PredictionLine,
  prompt: Prompt,
  context: JudgeContext,
): Promise<JudgementLine> {
  const base = { ...prediction, judge_model: context.judge.id };
  if (prediction.apb.status === 'error') {
    const judgement: Judgement = {
      is_correct: false,
      grade: 0,
      error_list: [0, 0, 0, 0, 0, 0],
      reasoning: `no answer to judge: the planner call failed (${prediction.apb.error?.message ?? 'unknown error'})`,
    };
    return {
      ...base,
      judgement,
      apb: judgementMeta(context.judge, null, null, prediction.apb, [
        'planner call failed; not sent to the judge',
      ]),
    };
  }
  const { parsed, text } = answerOf(caseItem, prediction, context.jsonDepth);
  const findings = runChecks(caseItem, parsed, text);
  const input = {
    case: caseItem,
    plannerPrompt: prompt,
    rawAnswer: text.text,
    truncated: text.truncated,
    parsed,
    findings,
    repeat: prediction.apb.repeat,
  };
  const result = await context.judge.judge(input, context.signal);
  return { ...base, ...recordJudgeResult(context.judge, result, input, prediction.apb) };
}
