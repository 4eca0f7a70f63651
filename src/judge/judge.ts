/** The `Judge` contract: rules or LLM, one verdict (or `Unjudged`) per answer. */
import type { Case } from '../dataset/case.js';
import type { Usage } from '../providers/provider.js';
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Prompt } from '../settings/prompt.js';
import type { Findings } from './checks/findings.js';
import type { JudgeOutcome } from './verdict.js';

/** What a judge is given: the case with its reference, the planner's exact prompt and raw answer, and the findings. */
export interface JudgeInput {
  case: Case;
  plannerPrompt: Prompt;
  rawAnswer: string;
  parsed: ParsedAnswer;
  findings: Findings;
  repeat: number;
}

/** A judge's outcome plus what it cost. */
export interface JudgeResult {
  outcome: JudgeOutcome;
  usage: Usage | null;
  latencyMs: number;
  attempts: number;
  cached: boolean;
  promptVersion: string;
}

export interface Judge {
  /** `rules`, or the judge model spec (`google:gemini-3-pro-preview`). */
  readonly id: string;
  readonly kind: 'rules' | 'llm';
  /** Version of everything that shapes its verdicts (rubric texts, mapping); recorded in the manifest. */
  readonly version: string;
  judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult>;
}
