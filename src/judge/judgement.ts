/**
 * A judge's outcome → the official keys of a judgement (`is_correct`, `grade`, `error_list`,
 * `reasoning`), and the guard that keeps an unreadable answer from being credited. Pure; shared by
 * the run's judgement lines (pipeline/judge-record.ts) and the exec run's plan verdicts.
 */
import type { z } from 'zod';
import type { JudgementSchema } from '../rundir/schemas/index.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import { NO_TEXT, type AnswerText } from './checks/check.js';
import { readableProse } from './checks/refusal.js';
import type { JudgeOutcome } from './verdict.js';

/** The official keys of a judgement (`rundir/schemas/result-lines.ts`). */
export type Judgement = z.infer<typeof JudgementSchema>;

/** The verdict's official keys; a judge error records no correctness (false) and no grade (null). */
export function judgementOf(outcome: JudgeOutcome, split: string): Judgement {
  if (outcome.kind === 'unjudged') {
    return {
      is_correct: false,
      grade: null,
      error_list: [0, 0, 0, 0, 0, 0],
      reasoning: `judge_error (${outcome.reason}): ${outcome.message}`,
    };
  }
  const judgement: Judgement = {
    is_correct: outcome.correct,
    grade: outcome.grade,
    error_list: outcome.errors.map(Number),
    reasoning: outcome.reasoning,
  };
  if (split === 'step_wise_tool_broken' && outcome.behavior) judgement.behavior = outcome.behavior;
  if (outcome.refused !== undefined) judgement.refused = outcome.refused;
  return judgement;
}

/**
 * An answer without JSON keeps the judge's verdict when it is readable prose (the paper's judge
 * reads the raw answer, so a reasoned prose refusal or plan counts); empty, cut-off or garbage
 * text is never correct and never a refusal, whatever a judge says.
 */
export function guardParseFailure(
  outcome: JudgeOutcome,
  parsed: ParsedAnswer,
  answer: AnswerText = NO_TEXT,
): { outcome: JudgeOutcome; notes: string[] } {
  if (parsed.kind !== 'parse_error' || outcome.kind !== 'verdict' || readableProse(answer))
    return { outcome, notes: outcome.kind === 'verdict' ? outcome.notes : [] };
  const notes = [...outcome.notes];
  if (outcome.correct || outcome.refused)
    notes.push(
      'the answer is empty, cut off or not readable text: correctness and refusal overridden to false',
    );
  return {
    outcome: {
      ...outcome,
      correct: false,
      refused: false,
      grade: outcome.correct ? 0 : outcome.grade,
    },
    notes,
  };
}
