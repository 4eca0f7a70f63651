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
  const context = grounding.shown;
  const problems: ValueProblem[] = [];
  const given = argumentsOf(call);
  const reference = expected ? argumentsOf(expected) : {};
  const push = (argument: string, kind: ValueProblem['kind'], detail: string) =>
    problems.push({ step, tool: call.name, argument, kind, detail });
  for (const [argument, value] of Object.entries(given)) {
    const target = Object.hasOwn(reference, argument) ? reference[argument] : undefined;
    if (value === undefined || value === null) continue;
    if (holdsPlaceholder(value)) {
      if (options.vague && isConcrete(target) && isGrounded(target, context))
        push(argument, 'vague', `a placeholder where ${shown(target)} is already known`);
      continue;
    }
    if (isConcrete(target)) {
      if (sameValue(value, target)) continue;
      const invented = isIdentifier(value, argument) && !isGrounded(value, context);
      push(
        argument,
        invented ? 'invented' : 'conflict',
        `${shown(value)} where ${shown(target)} is expected`,
      );
      continue;
    }
    // A number the request states for this argument by name ("the second season") must be that number.
    const number = numberOf(value);
    const stated = number === null ? null : statedNumber(argument, grounding.request);
    if (stated !== null && number !== stated) {
      push(argument, 'conflict', `${shown(value)} where the request says ${stated}`);
      continue;
    }
    const near = nearMiss(value, grounding.shown);
    if (near !== null) {
      push(
        argument,
        'conflict',
        `${shown(value)} nearly repeats ${JSON.stringify(near)} of the request or trajectory`,
      );
      continue;
    }
    if (isPlaceholder(target)) {
      // The whole request copied into an argument is not the name or value the reference asks for.
      if (
        typeof value === 'string' &&
        isProse(value) &&
        normalizedText(value).replace(/[^a-z0-9 ]/g, '') ===
          grounding.query.replace(/[^a-z0-9 ]/g, '').trim()
      ) {
        push(argument, 'vague', 'passes the whole request instead of the value it names');
        continue;
      }
      // The reference leaves the value to data: a number the planner writes must be one the user stated.
      if (
        number !== null &&
        !isIdentifier(value, argument) &&
        !mentionsNumber(number, grounding.request)
      ) {
        push(argument, 'ungrounded', `${shown(value)} is stated nowhere in the request`);
        continue;
      }
      // The reference takes the value from the user's words: a literal must be among them.
      if (
        citedSteps(target).length === 0 &&
        typeof value === 'string' &&
        !isProse(value) &&
        !isGrounded(value, grounding.request)
      ) {
        push(argument, 'ungrounded', `${shown(value)} appears nowhere in the request`);
        continue;
      }
    }
    if (isIdentifier(value, argument) && !isGrounded(value, context))
      push(argument, 'invented', `${shown(value)} appears nowhere the planner was shown`);
  }
  return problems;
}
