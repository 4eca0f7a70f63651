/** The `Check` contract: one deterministic check (D1–D10), pure and synchronous. */
import type { Case } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';

/** The answer as text: what the planner wrote, and whether the output-token limit cut it off. */
export interface AnswerText {
  text: string;
  truncated: boolean;
}

/** No answer text (callers that judge only a parsed answer). */
export const NO_TEXT: AnswerText = { text: '', truncated: false };

/** One deterministic check: its code in peers.md §B10 and the function that computes its finding. */
export interface Check<T> {
  /** The check's code in the design notes (D1–D12). */
  code: `D${number}`;
  /** One line on what it checks, for reports. */
  description: string;
  /** `answer` is the raw text; only the refusal check reads it (a prose refusal has nothing parsed). */
  run(caseItem: Case, parsed: ParsedAnswer, answer?: AnswerText): T;
}
