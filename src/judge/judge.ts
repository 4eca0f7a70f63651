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
  /** The planner's reply hit the output-token limit (a cut-off text is never a refusal). */
  truncated?: boolean;
  parsed: ParsedAnswer;
  findings: Findings;
  repeat: number;
}

/** A judge's outcome plus what it cost; a panel adds what each member said. */
export interface JudgeResult {
  outcome: JudgeOutcome;
  usage: Usage | null;
  latencyMs: number;
  attempts: number;
  cached: boolean;
  promptVersion: string;
  /** The provider batches that answered (`--batch`), when any did. */
  batchIds?: string[];
  /** Set by a panel: every member's own result, in member order. */
  members?: MemberResult[];
}

/** One panel member's result for an answer. */
export interface MemberResult {
  judge: string;
  kind: 'rules' | 'llm';
  version: string;
  result: JudgeResult;
}

/** Anything that judges answers: the rules judge, an LLM judge, or a panel of them. */
export interface Judge {
  /** `rules`, the judge model spec (`google:gemini-3-pro-preview`), or a panel id (`panel(rules+google:…)`). */
  readonly id: string;
  /** A panel is `llm` when any member is. */
  readonly kind: 'rules' | 'llm';
  /** Version of everything that shapes its verdicts (rubric texts, mapping); recorded in the manifest. */
  readonly version: string;
  judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult>;
}
