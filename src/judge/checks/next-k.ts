/**
 * D9: next-k agreement on step-wise splits (GTA's ToolAcc / ArgAcc, step by step): at each of the
 * k positions, the same tool as the ground truth (no tool on both sides matches), and the same
 * argument values wherever the reference gives a concrete value.
 */
import type { ToolCall } from '../../dataset/case.js';
import type { PredictedStep } from '../../settings/attempt.js';
import { referenceToolNames } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import { isPlaceholder } from '../../dataset/placeholders.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a reference value is concrete enough to compare (not a placeholder, null or blank). */
function isConcrete(value: unknown): boolean {
  if (value === null || value === undefined || isPlaceholder(value)) return false;
  return typeof value !== 'string' || value.trim() !== '';
}

/** Loose equality of values: strings trimmed and case-folded, numbers (and numeric strings) by value, containers element-wise. */
export function valuesAgree(predicted: unknown, reference: unknown): boolean {
  // Nested placeholders carry no value to compare (top-level ones are skipped by the caller).
  if (isPlaceholder(reference) || isPlaceholder(predicted)) return true;
  const asNumber = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN);
  if (typeof reference === 'number' || typeof predicted === 'number') return asNumber(predicted) === asNumber(reference);
  if (typeof reference === 'string' && typeof predicted === 'string') return predicted.trim().toLowerCase() === reference.trim().toLowerCase();
  if (Array.isArray(reference)) {
    return Array.isArray(predicted) && predicted.length === reference.length && reference.every((item, index) => valuesAgree(predicted[index], item));
  }
  if (isObject(reference)) {
    const keys = new Set([...Object.keys(reference), ...(isObject(predicted) ? Object.keys(predicted) : [])]);
    const own = (object: Loose, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);
    return isObject(predicted) && [...keys].every((key) => valuesAgree(own(predicted, key), own(reference, key)));
  }
  return predicted === reference;
}

/**
 * Whether the predicted arguments agree with the reference's concrete values; null when there is
 * nothing concrete to compare. A predicted placeholder is skipped: in a blind multi-step answer it
 * stands for a value the earlier action will return.
 */
export function argumentsAgree(predicted: unknown, reference: unknown): boolean | null {
  if (!isObject(reference)) return isConcrete(reference) && !isPlaceholder(predicted) ? valuesAgree(predicted, reference) : null;
  const given = isObject(predicted) ? predicted : {};
  const valueOf = (name: string) => (Object.hasOwn(given, name) ? given[name] : undefined);
  const compared = Object.entries(reference).filter(([name, value]) => isConcrete(value) && !isPlaceholder(valueOf(name)));
  if (compared.length === 0) return null;
  return compared.every(([name, value]) => valueOf(name) !== undefined && valuesAgree(valueOf(name), value));
}

function positionOf(predicted: PredictedStep | undefined, reference: ToolCall | null): { tool: boolean; args: boolean | null } {
  const call = predicted?.toolCall ?? null;
  if (!predicted) return { tool: false, args: null };
  if (!call || !reference) return { tool: call === null && reference === null, args: null };
  if (call.name !== reference.name) return { tool: false, args: null };
  return { tool: true, args: argumentsAgree(call.arguments, reference.arguments) };
}

/** D9 finding on step-wise splits (null on holistic splits and for a parse failure). */
export const nextKCheck: Check<Findings['nextK']> = {
  code: 'D9',
  description: 'next-k steps: count equals the horizon; tool and concrete arguments match at each position',
  run(caseItem, parsed) {
    if (caseItem.input.regime !== 'Step-wise' || parsed.kind === 'parse_error') return null;
    const horizon = caseItem.input.horizon ?? Math.max(1, caseItem.reference.groundTruthSteps.length);
    const steps = parsed.kind === 'steps' ? parsed.steps : parsed.kind === 'plan' ? parsed.toolChain.map((call) => ({ thought: '', toolCall: call })) : [];
    const referenceAt = (index: number) => caseItem.reference.groundTruthSteps[index]?.toolCalls[0] ?? null;
    const positions = Array.from({ length: horizon }, (_, index) => positionOf(steps[index], referenceAt(index)));
    const toolMatches = positions.map((position) => position.tool);
    const predictedTools = Array.from({ length: horizon }, (_, index) => steps[index]?.toolCall?.name ?? null);
    const used = referenceToolNames(caseItem);
    return {
      horizon,
      predicted: steps.length,
      toolMatches,
      argumentMatches: positions.map((position) => position.args),
      allToolsMatch: toolMatches.every(Boolean),
      predictedTools,
      referenceTools: Array.from({ length: horizon }, (_, index) => referenceAt(index)?.name ?? null),
      inReference: predictedTools.map((name) => name !== null && used.has(name)),
    };
  },
};
