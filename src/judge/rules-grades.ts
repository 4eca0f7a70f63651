/**
 * Plan grades of the rules judge, monotone in severity, on the paper's level descriptions (C.1.1
 * step-wise, C.1.2 holistic): a refusal of a solvable task and an answer that gets nothing right
 * rank below any partial answer. The mapping and its worked examples: docs/rules-judge.md ("Grades").
 */
import { snapGrade, type ErrorFlags, type Grade } from './verdict.js';

/** The C.1.1 rubric as a function of the flags: majors E1/E3/E6, moderate E2, minors E4/E5. */
export function stepWiseGrade(errors: ErrorFlags): Grade {
  const [e1, e2, e3, e4, e5, e6] = errors;
  const majors = [e1, e3, e6].filter(Boolean).length;
  const minors = [e4, e5].filter(Boolean).length;
  if (majors >= 2) return 0;
  if (majors === 1) return 0.2;
  if (e2 || minors >= 2) return 0.4;
  if (minors === 1) return 0.6;
  return 1;
}

/** What a step-wise grade is read from besides the flags. */
export interface StepWiseSeverity {
  errors: ErrorFlags;
  refused: boolean;
  /** Every flag comes from a trivial argument-name issue (an unknown optional argument). */
  onlyTrivial: boolean;
  /** At least one position calls the reference's tool (with or without the right values) or a sound reorder. */
  anyPositionRight: boolean;
}

/**
 * Step-wise grade: 0 for a refusal ("complete breakdown"), 0.8 for one trivial E5, at most 0.2
 * when no position is right (the step fails outright), else the C.1.1 rubric of the flags.
 */
export function stepWiseSeverityGrade(severity: StepWiseSeverity): Grade {
  const { errors, refused, onlyTrivial, anyPositionRight } = severity;
  if (refused) return 0;
  if (!errors.some(Boolean)) return 1;
  if (onlyTrivial) return 0.8;
  const rubric = stepWiseGrade(errors);
  return anyPositionRight ? rubric : (Math.min(rubric, 0.2) as Grade);
}

/** What a holistic grade is read from. */
export interface HolisticSeverity {
  refused: boolean;
  /** Key components flawed: missing reference calls plus answer calls with a real error. */
  flaws: number;
  /** Answer calls whose only error is trivial (an unknown optional argument). */
  trivial: number;
  /** Reference calls the answer serves without error (paired or stood in for). */
  good: number;
  /** Reference calls the answer addresses at all, with or without error (paired or stood in for). */
  served: number;
  /** Reference calls (null without a reference chain). */
  referenceCalls: number | null;
}

/**
 * Holistic grade on the C.1.2 levels: 1 no error; 0.8 only trivial issues ("a minor,
 * non-critical error"); 0.6 one key component missing or flawed ("on the right track"); 0.4
 * several, with at least half of the reference served ("some correct steps"); 0.2 less than
 * half ("might get one simple step right"); 0 when no reference call is even addressed, or a refusal
 * ("zero logical merit").
 */
export function holisticGrade(severity: HolisticSeverity): Grade {
  const { refused, flaws, trivial, good, served, referenceCalls } = severity;
  if (refused) return 0;
  if (referenceCalls !== null && served === 0) return 0;
  if (flaws === 0) return trivial > 0 ? 0.8 : 1;
  if (flaws === 1) return 0.6;
  if (referenceCalls === null || good / referenceCalls >= 0.5 - 1e-9) return 0.4;
  return snapGrade(0.2);
}
