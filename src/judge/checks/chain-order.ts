/**
 * D7: order-aware agreement with the reference. `lcs` is the longest common subsequence of the
 * tool-name sequences (T-Eval's LIS idea); edges are data-flow links (step j's arguments cite
 * step i) compared by tool names, or consecutive pairs when either side cites no step at all.
 */
import type { ToolCall } from '../../dataset/case.js';
import { precisionRecall, predictedCalls, referenceCalls, sharedCount } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import { citedSteps } from '../../dataset/placeholders.js';

/** Length of the longest common subsequence of two sequences. */
export function longestCommonSubsequence(
  left: readonly string[],
  right: readonly string[],
): number {
  let previous = new Array<number>(right.length + 1).fill(0);
  for (const item of left) {
    const current = [0];
    right.forEach((other, index) =>
      current.push(
        item === other ? previous[index]! + 1 : Math.max(previous[index + 1]!, current[index]!),
      ),
    );
    previous = current;
  }
  return previous[right.length]!;
}

/** Data-flow edges `from→to` by tool name: call j cites an earlier call i (1-based) in its arguments. */
export function dataFlowEdges(calls: readonly ToolCall[]): string[] {
  return calls.flatMap((call, index) =>
    citedSteps(call.arguments)
      .filter((step) => step >= 1 && step <= index)
      .map((step) => `${calls[step - 1]!.name}→${call.name}`),
  );
}

/** Consecutive-pair edges by tool name. */
export function consecutiveEdges(calls: readonly ToolCall[]): string[] {
  return calls.slice(1).map((call, index) => `${calls[index]!.name}→${call.name}`);
}

/** D7 finding (null without a reference chain or a readable answer). */
export const chainOrderCheck: Check<Findings['chainOrder']> = {
  code: 'D7',
  description:
    'order-aware agreement: longest common subsequence and edge F1 against the reference',
  run(caseItem, parsed) {
    const reference = referenceCalls(caseItem);
    if (!reference || parsed.kind === 'parse_error') return null;
    const predicted = predictedCalls(parsed);
    const lcs = longestCommonSubsequence(
      predicted.map((call) => call.name),
      reference.map((call) => call.name),
    );
    const referenceFlow = dataFlowEdges(reference);
    const predictedFlow = dataFlowEdges(predicted);
    // Data flow is compared only when both sides cite steps: an answer that describes its inputs
    // without step numbers gives no evidence either way, so both fall back to consecutive pairs.
    const edgeBasis =
      referenceFlow.length > 0 && predictedFlow.length > 0 ? 'data-flow' : 'consecutive';
    const referenceEdges = edgeBasis === 'data-flow' ? referenceFlow : consecutiveEdges(reference);
    const predictedEdges = edgeBasis === 'data-flow' ? predictedFlow : consecutiveEdges(predicted);
    // Nothing to compare when the reference has no edge (a one-call chain): null, not a free 1.
    const edges =
      referenceEdges.length === 0
        ? null
        : precisionRecall(
            sharedCount(predictedEdges, referenceEdges),
            predictedEdges.length,
            referenceEdges.length,
          );
    // Edges lost only because a tool is missing are incompleteness, not a broken link: count the rest.
    const called = new Set(predicted.map((call) => call.name));
    const reachable = referenceEdges.filter((edge) =>
      edge.split('→').every((name) => called.has(name)),
    );
    return {
      lcs,
      lcsRatio: reference.length === 0 ? 1 : lcs / reference.length,
      edgeF1: edges?.f1 ?? null,
      sharedEdgeRecall:
        reachable.length === 0 ? null : sharedCount(predictedEdges, reachable) / reachable.length,
      edgeBasis,
    };
  },
};
