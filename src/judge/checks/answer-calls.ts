/** Shared views of an answer and a reference that several checks compare: calls, names, multisets. */
import type { Case, ToolCall } from '../../dataset/case.js';
import { toolCallsOf, type ParsedAnswer } from '../../settings/attempt.js';

/** The tool calls an answer makes, in order; none for a parse failure or a refusal. */
export function predictedCalls(parsed: ParsedAnswer): ToolCall[] {
  return parsed.kind === 'parse_error' ? [] : toolCallsOf(parsed);
}

/**
 * The reference calls an answer is compared with: the tool chain on holistic splits, the
 * ground-truth next-k steps' calls on step-wise splits; null when the reference has none to offer.
 */
export function referenceCalls(caseItem: Case): ToolCall[] | null {
  const { reference } = caseItem;
  if (caseItem.input.regime === 'Holistic')
    return reference.toolChain.length > 0 ? reference.toolChain : null;
  if (reference.groundTruthSteps.length === 0) return null;
  return reference.groundTruthSteps.flatMap((step) => step.toolCalls);
}

/** Every tool name the reference uses anywhere: chain, next-k steps and remaining steps. */
export function referenceToolNames(caseItem: Case): Set<string> {
  const { reference } = caseItem;
  const steps = [...reference.groundTruthSteps, ...reference.remainingSteps];
  return new Set([
    ...reference.toolChain.map((call) => call.name),
    ...steps.flatMap((step) => step.toolCalls.map((call) => call.name)),
  ]);
}

/** Counts of each string in a list (a multiset). */
export function multiset(names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Size of the multiset intersection of two lists. */
export function sharedCount(left: readonly string[], right: readonly string[]): number {
  const rightCounts = multiset(right);
  let shared = 0;
  for (const [name, count] of multiset(left)) shared += Math.min(count, rightCounts.get(name) ?? 0);
  return shared;
}

/** Items of `from` left over after removing one occurrence per item of `minus` (order of `from` kept). */
export function multisetDifference(from: readonly string[], minus: readonly string[]): string[] {
  const remaining = multiset(minus);
  return from.filter((name) => {
    const count = remaining.get(name) ?? 0;
    if (count === 0) return true;
    remaining.set(name, count - 1);
    return false;
  });
}

/**
 * Precision, recall and F1 from a shared count; an empty side contributes a perfect score (see
 * docs/rules-judge.md).
 */
export function precisionRecall(
  shared: number,
  predicted: number,
  reference: number,
): { precision: number; recall: number; f1: number } {
  const precision = predicted === 0 ? 1 : shared / predicted;
  const recall = reference === 0 ? 1 : shared / reference;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
