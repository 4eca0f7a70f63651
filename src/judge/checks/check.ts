/** The `Check` contract: one deterministic check (D1–D10), pure and synchronous. */
import type { Case } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';

/** One deterministic check: its code in peers.md §B10 and the function that computes its finding. */
export interface Check<T> {
  /** The check's code in the design notes (D1–D10). */
  code: `D${number}`;
  /** One line on what it checks, for reports. */
  description: string;
  run(caseItem: Case, parsed: ParsedAnswer): T;
}
