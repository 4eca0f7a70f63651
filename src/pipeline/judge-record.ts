/**
 * A judge's result → what a judgement line records, pure: the official keys (a parse failure is
 * never correct), the `apb` meta, every panel member (`apb.judges`) and, for LLM verdicts, the
 * contradictions with the findings. Storage layout: docs/judge.md ("Storage").
 */
import type { Findings } from '../judge/checks/findings.js';
import {
  findContradictions,
  type Contradiction,
  type ContradictionInput,
} from '../judge/contradictions.js';
import type { Judge, JudgeResult, MemberResult } from '../judge/judge.js';
import type { JudgeOutcome } from '../judge/verdict.js';
import type { AnswerText } from '../judge/checks/check.js';
import { guardParseFailure, judgementOf } from '../judge/judgement.js';
import {
  RESULT_SCHEMA_VERSION,
  type Judgement,
  type JudgeErrorRecord,
  type JudgementMeta,
  type MemberJudgement,
  type PredictionMeta,
} from './records.js';

function judgeErrorOf(outcome: JudgeOutcome): JudgeErrorRecord | undefined {
  if (outcome.kind !== 'unjudged') return undefined;
  return {
    reason: outcome.reason,
    message: outcome.message,
    ...(outcome.rawText !== undefined ? { raw_text: outcome.rawText } : {}),
  };
}

/** Contradictions of an LLM verdict (before the parse-failure guard, so a judge crediting an unreadable answer is caught); none for rules or Unjudged. */
function contradictionsOf(
  kind: Judge['kind'],
  outcome: JudgeOutcome,
  input: ContradictionInput,
): Contradiction[] | undefined {
  return kind === 'llm' && outcome.kind === 'verdict'
    ? findContradictions(input, outcome)
    : undefined;
}

const answerTextOf = (input: ContradictionInput): AnswerText => ({
  text: input.rawAnswer ?? '',
  truncated: input.truncated ?? false,
});

function memberRecord(
  member: MemberResult,
  split: string,
  input: ContradictionInput,
): MemberJudgement {
  const { result } = member;
  const guarded = guardParseFailure(result.outcome, input.parsed, answerTextOf(input));
  const record: MemberJudgement = {
    judge: member.judge,
    kind: member.kind,
    version: member.version,
    status: result.outcome.kind === 'unjudged' ? 'judge_error' : 'ok',
    judgement: judgementOf(guarded.outcome, split),
    judge_prompt_version: result.promptVersion,
    usage: result.usage,
    latency_ms: result.latencyMs,
    attempts: result.attempts,
    cached: result.cached,
    notes: guarded.notes,
  };
  const judgeError = judgeErrorOf(result.outcome);
  if (judgeError) record.judge_error = judgeError;
  const contradictions = contradictionsOf(member.kind, result.outcome, input);
  if (contradictions) record.contradictions = contradictions;
  return record;
}

/** What a judged answer records: the official keys and the `apb` meta (members and contradictions included). */
export function recordJudgeResult(
  judge: Judge,
  result: JudgeResult,
  input: ContradictionInput & { findings: Findings },
  prediction: PredictionMeta,
): { judgement: Judgement; apb: JudgementMeta } {
  const split = input.case.split;
  const guarded = guardParseFailure(result.outcome, input.parsed, answerTextOf(input));
  const apb = judgementMeta(judge, result, input.findings, prediction, guarded.notes);
  const judgeError = judgeErrorOf(result.outcome);
  if (judgeError) apb.judge_error = judgeError;
  if (result.members)
    apb.judges = result.members.map((member) => memberRecord(member, split, input));
  const contradictions = contradictionsOf(judge.kind, result.outcome, input);
  if (contradictions) apb.contradictions = contradictions;
  return { judgement: judgementOf(guarded.outcome, split), apb };
}

/** The `apb` meta of a judgement line; `result` is null when nothing was sent to the judge. */
export function judgementMeta(
  judge: Judge,
  result: JudgeResult | null,
  findings: Findings | null,
  prediction: PredictionMeta,
  notes: string[],
): JudgementMeta {
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    status: result?.outcome.kind === 'unjudged' ? 'judge_error' : 'ok',
    judge_kind: judge.kind,
    judge_prompt_version: result?.promptVersion ?? 'none',
    findings,
    usage: result?.usage ?? null,
    latency_ms: result?.latencyMs ?? null,
    attempts: result?.attempts ?? 0,
    cached: result?.cached ?? false,
    ...(result?.batchIds?.length ? { batch_ids: result.batchIds } : {}),
    notes,
    prediction,
  };
}
