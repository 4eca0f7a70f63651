/** The three judging outcomes' data: `Verdict` (counts), `Unjudged` (recorded, never correct). */

/** The plan-grade grid of the paper (§3.3). */
export const GRADE_GRID = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;
export type Grade = (typeof GRADE_GRID)[number];

/**
 * E1..E6 (paper §3.3): goal understanding, premature conclusion / incompleteness, constraint
 * violation, logic, tool use, hallucination.
 */
export const ERROR_CODES = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6'] as const;
export type ErrorFlags = [boolean, boolean, boolean, boolean, boolean, boolean];
export const NO_ERRORS: ErrorFlags = [false, false, false, false, false, false];

/** Tool-broken behaviour categories (paper §4.2.3, C.4). */
export const BROKEN_BEHAVIORS = ['replace', 'alter', 'retry', 'refuse', 'other'] as const;
export type BrokenBehavior = (typeof BROKEN_BEHAVIORS)[number];

/** A readable, consistent judgement of one answer. */
export interface Verdict {
  kind: 'verdict';
  correct: boolean;
  grade: Grade;
  errors: ErrorFlags;
  reasoning: string;
  /** Tool-broken only. */
  behavior?: BrokenBehavior;
  /** Whether the answer refuses the task (every split; decisive on unsolvable). */
  refused?: boolean;
  /** Normalisation notes, e.g. an off-grid grade that was snapped. */
  notes: string[];
}

/** No verdict: the judge call failed or its reply could not be read. Never counted as correct. */
export interface Unjudged {
  kind: 'unjudged';
  reason: 'judge-call-failed' | 'judge-parse-failure' | 'judge-inconsistent' | 'judge-refused';
  message: string;
  rawText?: string;
}

export type JudgeOutcome = Verdict | Unjudged;

/** Snaps a number to the nearest grid grade. */
export function snapGrade(value: number): Grade {
  const clamped = Math.min(1, Math.max(0, value));
  return GRADE_GRID.reduce(
    (best, grade) => (Math.abs(grade - clamped) < Math.abs(best - clamped) ? grade : best),
    GRADE_GRID[0],
  );
}
