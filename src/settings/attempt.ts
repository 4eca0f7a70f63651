/** What a planner's answer parses into: a plan, next steps or a refusal; or a parse failure. */
import type { ToolCall } from '../dataset/case.js';

/** One predicted step-wise action; `toolCall` is null for a text-only step (e.g. a final answer). */
export interface PredictedStep {
  thought: string;
  content?: string;
  toolCall: ToolCall | null;
}

/** A holistic answer: the plan text and its ordered tool chain. */
export interface PlanAttempt {
  kind: 'plan';
  plan: string;
  toolChain: ToolCall[];
  /** Deviations from the requested schema the lenient parser tolerated (empty when exact). */
  schemaIssues: string[];
}

/** A step-wise answer: the next k actions. */
export interface StepsAttempt {
  kind: 'steps';
  steps: PredictedStep[];
  schemaIssues: string[];
}

/** An explicit refusal (`{"status": "REJECT", "reason": ...}`). */
export interface RefusalAttempt {
  kind: 'refusal';
  reason: string;
  schemaIssues: string[];
}

export type Attempt = PlanAttempt | StepsAttempt | RefusalAttempt;

/** The answer could not be read. Never a refusal, never correct. */
export interface AnswerParseFailure {
  kind: 'parse_error';
  message: string;
}

export type ParsedAnswer = Attempt | AnswerParseFailure;

/** The tool calls an attempt makes, in order (empty for a refusal). */
export function toolCallsOf(attempt: Attempt): ToolCall[] {
  if (attempt.kind === 'plan') return attempt.toolChain;
  if (attempt.kind === 'steps')
    return attempt.steps.flatMap((step) => (step.toolCall ? [step.toolCall] : []));
  return [];
}
