/**
 * D10: plan length and cost against the reference (TravelPlanner's budget idea). Costs exist only
 * when every listed tool carries one; a side that calls an unlisted tool cannot be priced, so its
 * cost is null rather than a number that silently counts the fake tool as free.
 */
import type { Case, ToolCall } from '../../dataset/case.js';
import { predictedCalls, referenceCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';

/** Total cost of a list of calls, or null when a tool is unpriced or unlisted. */
export function costOf(caseItem: Case, calls: readonly ToolCall[]): number | null {
  const { tools } = caseItem.input;
  if (tools.length === 0 || tools.some((tool) => typeof tool.cost !== 'number')) return null;
  const costs = new Map(tools.map((tool) => [tool.name, tool.cost as number]));
  let total = 0;
  for (const call of calls) {
    const cost = costs.get(call.name);
    if (cost === undefined) return null;
    total += cost;
  }
  return total;
}

/**
 * D10 finding (null without reference calls or a readable answer); steps are tool calls on holistic
 * splits, predicted steps on step-wise ones.
 */
export const planCostCheck: Check<Findings['planCost']> = {
  code: 'D10',
  description: 'plan length and total tool cost against the reference',
  run(caseItem, parsed) {
    const reference = referenceCalls(caseItem);
    if (!reference || parsed.kind === 'parse_error') return null;
    const predicted = predictedCalls(parsed);
    const stepWise = caseItem.input.regime === 'Step-wise';
    return {
      predictedSteps: stepWise && parsed.kind === 'steps' ? parsed.steps.length : predicted.length,
      referenceSteps: stepWise ? caseItem.reference.groundTruthSteps.length : reference.length,
      predictedCost: costOf(caseItem, predicted),
      referenceCost: costOf(caseItem, reference),
    };
  },
};
