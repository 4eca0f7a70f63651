/**
 * What one refinement records, round by round: each critique and each revision with its call
 * details, as stored under `apb.refinement.rounds` in a refined run's lines. Failures are data
 * here (a failed call, an empty critique, an unreadable revision), never an empty answer.
 */
import type { FinishReason, Usage } from '../providers/provider.js';
import type { Attempt } from '../settings/attempt.js';

/** A failed model call, as recorded (the message is redacted where it is made). */
export interface CallError {
  kind: string;
  message: string;
  status?: number;
}

/** Call details shared by critiques and revisions. */
export interface CallRecord {
  prompt_version: string;
  usage: Usage | null;
  latency_ms: number | null;
  finish_reason: FinishReason | null;
  attempts: number;
  cached: boolean;
  error?: CallError;
}

/** One critique: `unreadable` when the critic answered with no text, `error` when its call failed. */
export interface CritiqueRecord extends CallRecord {
  status: 'ok' | 'unreadable' | 'error';
  critic: string;
  text: string;
}

/** One revision: `parse_error` when the revised answer cannot be read, `error` when the call failed. */
export interface RevisionRecord extends CallRecord {
  status: 'ok' | 'parse_error' | 'error';
  text: string;
  parsed: Attempt | null;
  parse_error?: string;
}

/** One round: the critique of the current answer and the revision it led to (null when the critique failed). */
export interface RefineRound {
  round: number;
  critique: CritiqueRecord;
  revision: RevisionRecord | null;
}

/** A finished step, handed to `onStep` as it completes and given back through `done` to resume without re-sending it. */
export type RefineStep =
  | { round: number; kind: 'critique'; record: CritiqueRecord }
  | { round: number; kind: 'revision'; record: RevisionRecord };

/**
 * How a refinement ended. `ok` and `parse_error` carry a revised answer to judge (a parse failure
 * is judged as an unparsed first answer is); the other three carry none and are outcomes of their own.
 */
export type RefineStatus =
  'ok' | 'parse_error' | 'critique_failed' | 'critique_unreadable' | 'revision_failed';

/** Calls and tokens of one role over a refinement. */
export interface RoleUsage {
  calls: number;
  cached_calls: number;
  input_tokens: number;
  output_tokens: number;
}

/** True when a step is final: a failed call is not, so a resumed refinement sends it again. */
export function isFinishedStep(step: RefineStep): boolean {
  return step.record.status !== 'error';
}
