/** `valueProblems`: one call's argument values against the reference call it is paired with (D9, D12, D4 share it). */
import type { ToolCall } from '../../dataset/case.js';
import { citedSteps, isPlaceholder } from '../../dataset/placeholders.js';
import type { ValueProblem } from './findings.js';
import { mentionsNumber, nearMiss, statedNumber } from './stated-values.js';
import {
  argumentsOf,
  holdsPlaceholder,
  isConcrete,
  isGrounded,
  isIdentifier,
  isProse,
  normalizedText,
  numberOf,
  sameValue,
  type Grounding,
} from './values.js';

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 80) ?? String(value);

/**
 * Options of `valueProblems`: `vague` also flags a placeholder where the reference value was
 * already shown to the planner.
 */
export interface ValueOptions {
  vague?: boolean;
}

/**
 * The value problems of one call against the reference call it is paired with (or against nothing:
 * only invented identifiers).
 */
export function valueProblems(
  call: ToolCall,
  expected: ToolCall | null,
  step: number,
  grounding: Grounding,
  options: ValueOptions = {},
): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const given = argumentsOf(call);
  const reference = expected ? argumentsOf(expected) : {};
  for (const [argument, value] of Object.entries(given)) {
    const target = Object.hasOwn(reference, argument) ? reference[argument] : undefined;
    if (value === undefined || value === null) continue;
    const problem = argumentProblem(argument, value, target, grounding, options);
    if (problem) problems.push({ step, tool: call.name, argument, ...problem });
  }
  return problems;
}

/** What is wrong with one argument's value; the first problem found is the one reported. */
type Problem = Pick<ValueProblem, 'kind' | 'detail'>;

/** One argument against its reference value (`target`, undefined when the reference has none). */
function argumentProblem(
  argument: string,
  value: unknown,
  target: unknown,
  grounding: Grounding,
  options: ValueOptions,
): Problem | null {
  if (holdsPlaceholder(value))
    return options.vague && isConcrete(target) && isGrounded(target, grounding.shown)
      ? { kind: 'vague', detail: `a placeholder where ${shown(target)} is already known` }
      : null;
  if (isConcrete(target)) {
    if (sameValue(value, target)) return null;
    const invented = isIdentifier(value, argument) && !isGrounded(value, grounding.shown);
    return {
      kind: invented ? 'invented' : 'conflict',
      detail: `${shown(value)} where ${shown(target)} is expected`,
    };
  }
  return (
    requestProblem(argument, value, grounding) ??
    (isPlaceholder(target) ? dataProblem(argument, value, target, grounding) : null) ??
    inventedProblem(argument, value, grounding)
  );
}

/** A value the request contradicts: a number it states by name, or a near copy of a shown value. */
function requestProblem(argument: string, value: unknown, grounding: Grounding): Problem | null {
  // A number the request states for this argument by name ("the second season") must be it.
  const number = numberOf(value);
  const stated = number === null ? null : statedNumber(argument, grounding.request);
  if (stated !== null && number !== stated)
    return { kind: 'conflict', detail: `${shown(value)} where the request says ${stated}` };
  const near = nearMiss(value, grounding.shown);
  if (near !== null)
    return {
      kind: 'conflict',
      detail: `${shown(value)} nearly repeats ${JSON.stringify(near)} of the request or trajectory`,
    };
  return null;
}

/** A value where the reference has a placeholder: the value is left to data or the user's words. */
function dataProblem(
  argument: string,
  value: unknown,
  target: unknown,
  grounding: Grounding,
): Problem | null {
  // The whole request copied into an argument is not the name or value the reference asks for.
  if (
    typeof value === 'string' &&
    isProse(value) &&
    normalizedText(value).replace(/[^a-z0-9 ]/g, '') ===
      grounding.query.replace(/[^a-z0-9 ]/g, '').trim()
  )
    return { kind: 'vague', detail: 'passes the whole request instead of the value it names' };
  // The reference leaves the value to data: a number the planner writes must be one the user said.
  const number = numberOf(value);
  if (
    number !== null &&
    !isIdentifier(value, argument) &&
    !mentionsNumber(number, grounding.request)
  )
    return { kind: 'ungrounded', detail: `${shown(value)} is stated nowhere in the request` };
  // The reference takes the value from the user's words: a literal must be among them.
  if (
    citedSteps(target).length === 0 &&
    typeof value === 'string' &&
    !isProse(value) &&
    !isGrounded(value, grounding.request)
  )
    return { kind: 'ungrounded', detail: `${shown(value)} appears nowhere in the request` };
  return null;
}

/** An identifier the planner was never shown is invented. */
function inventedProblem(argument: string, value: unknown, grounding: Grounding): Problem | null {
  return isIdentifier(value, argument) && !isGrounded(value, grounding.shown)
    ? { kind: 'invented', detail: `${shown(value)} appears nowhere the planner was shown` }
    : null;
}
