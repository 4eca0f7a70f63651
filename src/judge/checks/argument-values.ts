/**
 * D12: argument values against what fixes them. A call paired with a reference call (holistic:
 * D11's alignment; step-wise: D9's positions; tool-broken: the failed call the replacement
 * repeats) must not contradict its literals; where the reference only says the value comes from
 * the user's request, a literal must appear in it; an identifier that appears nowhere the planner
 * looked and matches no reference value is invented. docs/rules-judge.md ("Argument values").
 */
import type { Case, ToolCall } from '../../dataset/case.js';
import { predictedCalls, referenceCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings, ValueProblem } from './findings.js';
import { alignCalls } from './plan-alignment.js';
import { brokenCallOf } from './broken-call.js';
import { stepPositions, stepsOf } from './next-k.js';
import { groundingOf, type Grounding } from './values.js';
import { valueProblems } from './value-problems.js';

function holisticProblems(
  caseItem: Case,
  calls: readonly ToolCall[],
  context: Grounding,
): ValueProblem[] {
  const reference = referenceCalls(caseItem) ?? [];
  const { pairs } = alignCalls(calls, reference);
  const partner = new Map(pairs.map((pair) => [pair.step, reference[pair.reference - 1]!]));
  return calls.flatMap((call, index) =>
    valueProblems(call, partner.get(index + 1) ?? null, index + 1, context),
  );
}

function stepWiseProblems(
  caseItem: Case,
  parsed: Parameters<Check<unknown>['run']>[1],
  context: Grounding,
): ValueProblem[] {
  const steps = stepsOf(parsed);
  const horizon = caseItem.input.horizon ?? Math.max(1, caseItem.reference.groundTruthSteps.length);
  const positions = stepPositions(caseItem, steps, horizon);
  return steps.flatMap((step, index) => {
    const call = step.toolCall;
    if (!call) return [];
    const position = positions[index];
    const compared =
      position &&
      (position.kind === 'value-mismatch' ||
        position.kind === 'match' ||
        position.kind === 'accepted')
        ? position.compared
        : null;
    return valueProblems(call, compared, index + 1, context, { vague: index === 0 });
  });
}

/** D12 finding: every value problem of the answer's calls. */
export const argumentValuesCheck: Check<Findings['argumentValues']> = {
  code: 'D12',
  description:
    'argument values agree with the query, the trajectory and the reference (normalised); no invented identifiers',
  run(caseItem, parsed) {
    if (parsed.kind === 'parse_error') return { problems: [] };
    const context = groundingOf(caseItem);
    if (caseItem.split === 'step_wise_tool_broken') {
      const first = predictedCalls(parsed)[0];
      const broken = brokenCallOf(caseItem);
      if (!first) return { problems: [] };
      const repeats =
        first.name === caseItem.reference.replacementTool?.name ||
        first.name === caseItem.reference.brokenToolName;
      return { problems: valueProblems(first, repeats ? broken : null, 1, context) };
    }
    if (caseItem.input.regime === 'Holistic')
      return { problems: holisticProblems(caseItem, predictedCalls(parsed), context) };
    return { problems: stepWiseProblems(caseItem, parsed, context) };
  },
};
