/**
 * D9: next-k agreement on step-wise splits (GTA's ToolAcc / ArgAcc, step by step): at each of the
 * k positions, the same tool as the ground truth (no tool on both sides matches) and the same
 * values wherever the reference gives a literal (compared as `values.ts` normalises them). A
 * position that instead takes a later reference step early is accepted when that step only reads
 * and everything it needs is already available (a sound reorder; docs/rules-judge.md).
 */
import type { Case, ToolCall } from '../../dataset/case.js';
import { citedSteps } from '../../dataset/placeholders.js';
import { effectOfCall } from '../../dataset/tool-effect.js';
import type { PredictedStep } from '../../settings/attempt.js';
import { referenceToolNames } from './answer-calls.js';
import { valueProblems } from './value-problems.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import { argumentsOf, groundingOf, isConcrete, isGrounded } from './values.js';

/** What one position of the answer is, against the ground truth. */
export type PositionKind =
  'match' | 'accepted' | 'value-mismatch' | 'mismatch' | 'missing' | 'text-early';

/** One position of a step-wise answer: how it relates to the reference, and the reference call it was compared with. */
export interface StepPosition {
  kind: PositionKind;
  compared: ToolCall | null;
  /** Whether the reference gave literal values to compare (false: nothing concrete to check). */
  comparedValues: boolean;
}

/** The steps of a step-wise answer (a holistic-shaped answer's chain counts as steps). */
export function stepsOf(parsed: Parameters<Check<unknown>['run']>[1]): PredictedStep[] {
  if (parsed.kind === 'steps') return parsed.steps;
  if (parsed.kind === 'plan')
    return parsed.toolChain.map((call) => ({ thought: '', toolCall: call }));
  return [];
}

/**
 * The reference calls still to come: the remaining steps when they start with the ground truth,
 * else ground truth then remaining.
 */
function pendingPool(caseItem: Case): ToolCall[] {
  const truth = caseItem.reference.groundTruthSteps.map((step) => step.toolCalls[0] ?? null);
  const remaining = caseItem.reference.remainingSteps.flatMap((step) => step.toolCalls.slice(0, 1));
  const startsWithTruth =
    remaining.length >= truth.length &&
    truth.every((call, index) => !call || remaining[index]?.name === call.name);
  return startsWithTruth
    ? remaining
    : [...truth.filter((call): call is ToolCall => call !== null), ...remaining];
}

/**
 * Whether a reference call's inputs exist before the answer acts: literals shown to the planner,
 * citations of executed steps only.
 */
function inputsAvailable(reference: ToolCall, context: string, executedSteps: number): boolean {
  if (citedSteps(reference.arguments).some((step) => step > executedSteps)) return false;
  return Object.values(argumentsOf(reference)).every(
    (value) => !isConcrete(value) || isGrounded(value, context),
  );
}

/** Every position of a step-wise answer against the ground truth, with sound reorders accepted. */
export function stepPositions(
  caseItem: Case,
  steps: readonly PredictedStep[],
  horizon: number,
): StepPosition[] {
  const context = groundingOf(caseItem);
  const pool = pendingPool(caseItem);
  const used = new Set<number>();
  const executed = caseItem.input.trajectoryPrefix.reduce(
    (count, message) => count + message.toolCalls.length,
    0,
  );
  const take = (call: ToolCall, accept: (candidate: ToolCall) => boolean) => {
    const index = pool.findIndex(
      (candidate, at) => !used.has(at) && candidate.name === call.name && accept(candidate),
    );
    if (index >= 0) used.add(index);
    return index >= 0 ? pool[index]! : null;
  };
  return Array.from({ length: horizon }, (_, index): StepPosition => {
    const step = steps[index];
    const truth = caseItem.reference.groundTruthSteps[index]?.toolCalls[0] ?? null;
    if (!step) return { kind: 'missing', compared: truth, comparedValues: false };
    const call = step.toolCall;
    if (!call)
      return { kind: truth ? 'text-early' : 'match', compared: truth, comparedValues: false };
    const comparedValues = truth !== null && Object.values(argumentsOf(truth)).some(isConcrete);
    const agrees = (reference: ToolCall) =>
      valueProblems(call, reference, index + 1, context, { vague: index === 0 }).length === 0;
    if (truth && call.name === truth.name && agrees(truth)) {
      take(call, (candidate) => candidate === truth || agrees(candidate));
      return { kind: 'match', compared: truth, comparedValues };
    }
    const readOnly = effectOfCall(caseItem.input.tools, call.name) === 'read-only';
    const early = readOnly
      ? take(
          call,
          (candidate) =>
            candidate !== truth &&
            agrees(candidate) &&
            inputsAvailable(candidate, context.shown, executed),
        )
      : null;
    if (early)
      return {
        kind: 'accepted',
        compared: early,
        comparedValues: Object.values(argumentsOf(early)).some(isConcrete),
      };
    if (truth && call.name === truth.name)
      return { kind: 'value-mismatch', compared: truth, comparedValues };
    return { kind: 'mismatch', compared: truth, comparedValues: false };
  });
}

/** D9 finding on step-wise splits (null on holistic splits and for a parse failure). */
export const nextKCheck: Check<Findings['nextK']> = {
  code: 'D9',
  description:
    'next-k steps: count equals the horizon; tool and literal values match at each position, or a read-only later step is taken early with its inputs available',
  run(caseItem, parsed) {
    if (caseItem.input.regime !== 'Step-wise' || parsed.kind === 'parse_error') return null;
    const horizon =
      caseItem.input.horizon ?? Math.max(1, caseItem.reference.groundTruthSteps.length);
    const steps = stepsOf(parsed);
    const referenceAt = (index: number) =>
      caseItem.reference.groundTruthSteps[index]?.toolCalls[0] ?? null;
    const positions = stepPositions(caseItem, steps, horizon);
    const toolMatches = positions.map((_, index) => {
      const call = steps[index]?.toolCall ?? null;
      const reference = referenceAt(index);
      return (
        Boolean(steps[index]) &&
        (call && reference ? call.name === reference.name : call === null && reference === null)
      );
    });
    const predictedTools = Array.from(
      { length: horizon },
      (_, index) => steps[index]?.toolCall?.name ?? null,
    );
    const used = referenceToolNames(caseItem);
    return {
      horizon,
      predicted: steps.length,
      toolMatches,
      argumentMatches: positions.map((position) =>
        position.kind === 'value-mismatch'
          ? false
          : (position.kind === 'match' || position.kind === 'accepted') && position.comparedValues
            ? true
            : null,
      ),
      allToolsMatch: toolMatches.every(Boolean),
      predictedTools,
      referenceTools: Array.from(
        { length: horizon },
        (_, index) => referenceAt(index)?.name ?? null,
      ),
      inReference: predictedTools.map((name) => name !== null && used.has(name)),
      positions: positions.map((position) => position.kind),
    };
  },
};
