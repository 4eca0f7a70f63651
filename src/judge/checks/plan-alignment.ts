/**
 * D11 (holistic splits): the plan's calls aligned with the reference chain. Each reference call is
 * paired with an unpaired call of the same tool (the one whose values agree most); what stays
 * unpaired is missing (unless another read-only call stands in for it) or extra (harmless when
 * read-only, an unrequested state change otherwise). A paired call that comes before a reference
 * call it follows in the reference is a sound reorder only when it is a read and needs nothing that
 * call produces. Calls citing their own or a later step use data not yet available.
 */
import type { Case, Tool, ToolCall } from '../../dataset/case.js';
import { citedSteps, isPlaceholder } from '../../dataset/placeholders.js';
import { effectOfCall, wordsOf, READ_VERBS } from '../../dataset/tool-effect.js';
import { predictedCalls, referenceCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import {
  argumentsOf,
  groundingText,
  holdsPlaceholder,
  isConcrete,
  isGrounded,
  sameValue,
} from './values.js';

/** Pairs of (answer step, reference step), 1-based, and what stayed unpaired on each side. */
export interface Alignment {
  pairs: { step: number; reference: number }[];
  missing: number[];
  extra: number[];
}

/** How many concrete reference values a call repeats. */
function agreement(call: ToolCall, reference: ToolCall): number {
  const given = argumentsOf(call);
  return Object.entries(argumentsOf(reference)).filter(
    ([key, value]) =>
      isConcrete(value) && Object.hasOwn(given, key) && sameValue(given[key], value),
  ).length;
}

/** Aligns an answer's calls with reference calls by tool name, preferring the call whose values agree most. */
export function alignCalls(
  predicted: readonly ToolCall[],
  reference: readonly ToolCall[],
): Alignment {
  const taken = new Set<number>();
  const pairs: Alignment['pairs'] = [];
  const missing: number[] = [];
  reference.forEach((target, referenceIndex) => {
    let best = -1;
    predicted.forEach((call, index) => {
      if (taken.has(index) || call.name !== target.name) return;
      if (best < 0 || agreement(call, target) > agreement(predicted[best]!, target)) best = index;
    });
    if (best < 0) missing.push(referenceIndex + 1);
    else {
      taken.add(best);
      pairs.push({ step: best + 1, reference: referenceIndex + 1 });
    }
  });
  const extra = predicted.map((_, index) => index + 1).filter((step) => !taken.has(step - 1));
  return { pairs, missing, extra };
}

const SEARCH_TEXT = /^(?:q|query|text|search|keywords?|terms?|prompt|question)$/i;
const GENERIC_WORDS = new Set([
  ...READ_VERBS,
  'all',
  'by',
  'of',
  'for',
  'the',
  'a',
  'alt',
  'v',
  'backup',
  'mirror',
  'info',
  'data',
]);
const stem = (word: string) => word.replace(/(?:ies)$/, 'y').replace(/s$/, '');

/**
 * Whether `call` can stand in for `target`: both read-only and either siblings that differ only
 * after `_by_` (find_user_id_by_email for …_by_name_zip), or a call whose name and argument values
 * carry every distinctive word of the target's name and every literal the target passes
 * (GetMovieDetail with append_to_response "credits" for GetMovieCredit).
 */
export function standsIn(call: ToolCall, target: ToolCall, tools: readonly Tool[]): boolean {
  if (
    call.name === target.name ||
    effectOfCall(tools, call.name) !== 'read-only' ||
    effectOfCall(tools, target.name) !== 'read-only'
  )
    return false;
  const lineage = (name: string) => wordsOf(name.split(/_by_|By(?=[A-Z])/)[0] ?? name).join(' ');
  if (
    /_by_|By[A-Z]/.test(call.name) &&
    /_by_|By[A-Z]/.test(target.name) &&
    lineage(call.name) === lineage(target.name)
  )
    return true;
  // Option values ("append_to_response": "credits") say what a call returns; a search text only says what to look for.
  const options = Object.entries(argumentsOf(call)).filter(
    ([key, value]) => typeof value === 'string' && !SEARCH_TEXT.test(key) && !isPlaceholder(value),
  );
  const carried = new Set(
    [...wordsOf(call.name), ...options.flatMap(([, value]) => wordsOf(value as string))].map(stem),
  );
  const distinctive = wordsOf(target.name)
    .filter((word) => !GENERIC_WORDS.has(word))
    .map(stem);
  if (distinctive.length === 0 || !distinctive.every((word) => carried.has(word))) return false;
  // Every input the target takes must reach the stand-in under the same name (a search query is not a movie id).
  const given = argumentsOf(call);
  return Object.entries(argumentsOf(target)).every(([key, value]) => {
    if (value === undefined || value === null || value === '') return true;
    if (!Object.hasOwn(given, key)) return false;
    return holdsPlaceholder(value) || holdsPlaceholder(given[key]) || sameValue(given[key], value);
  });
}

/** Whether a placeholder names a tool: its exact name, or all of its name's words in order. */
function namesTool(value: unknown, tool: string): boolean {
  const text = JSON.stringify(value).toLowerCase();
  return (
    text.includes(tool.toLowerCase()) ||
    text.includes(wordsOf(tool).join(' ')) ||
    text.includes(wordsOf(tool).join('_'))
  );
}

// "<id from the previous step>": a placeholder that leans on some earlier step without naming it.
const EARLIER_STEP =
  /\b(?:earlier|previous|prior|preceding|above|last)\s+(?:step|call|action|result|output)s?\b/i;

/**
 * Data flow of paired calls whose reference value comes from an earlier reference step: the
 * answer's placeholder must name a step that serves that reference step (wrong-source otherwise),
 * or, naming none, follow one that does (unavailable otherwise) unambiguously (the only earlier
 * call, the call just before, or one it names by tool). A first call cannot draw on an earlier step.
 */
function dataFlowProblems(
  calls: readonly ToolCall[],
  reference: readonly ToolCall[],
  serves: ReadonlyMap<number, number>,
): NonNullable<Findings['planAlignment']>['dataFlow'] {
  const problems: NonNullable<Findings['planAlignment']>['dataFlow'] = [];
  calls.forEach((call, index) => {
    const step = index + 1;
    const target = serves.has(step) ? reference[serves.get(step)! - 1] : undefined;
    for (const [argument, value] of Object.entries(argumentsOf(call))) {
      if (!holdsPlaceholder(value)) continue;
      if (step === 1 && EARLIER_STEP.test(JSON.stringify(value))) {
        problems.push({
          step,
          argument,
          problem: 'unavailable',
          detail: 'the first call cannot use an earlier step',
        });
        continue;
      }
      const sources = target ? citedSteps(argumentsOf(target)[argument]) : [];
      if (sources.length === 0) continue;
      const needed = sources
        .map((source) => reference[source - 1]?.name ?? `step ${source}`)
        .join(', ');
      const cited = citedSteps(value);
      const servesSource = (other: number) =>
        other < step && sources.includes(serves.get(other) ?? -1);
      if (cited.length > 0 && !cited.some(servesSource))
        problems.push({
          step,
          argument,
          problem: 'wrong-source',
          detail: `cites step ${cited.join(', ')}; the reference takes it from ${needed}`,
        });
      if (cited.length > 0) continue;
      const providers = [...serves.keys()].filter(servesSource).sort((a, b) => a - b);
      if (providers.length === 0)
        problems.push({
          step,
          argument,
          problem: 'unavailable',
          detail: `no earlier step does what ${needed} does`,
        });
      // Unnamed, the source must be the one earlier call, the call just before, or a call the placeholder names.
      else if (!clearSource(step, providers, value, calls)) {
        problems.push({
          step,
          argument,
          problem: 'ambiguous',
          detail: `does not say which of the ${step - 1} earlier steps it uses (the reference takes it from ${needed})`,
        });
      }
    }
  });
  return problems;
}

/**
 * Whether an unnamed source is clear: the only earlier call, the one just before, or one the
 * placeholder names by tool.
 */
const clearSource = (
  step: number,
  providers: readonly number[],
  value: unknown,
  calls: readonly ToolCall[],
) =>
  step === 2 ||
  providers.includes(step - 1) ||
  providers.some((provider) => namesTool(value, calls[provider - 1]!.name));

/** Whether the call at answer step `moved` may come before the reference call it follows (answer step `earlier`). */
function soundReorder(
  caseItem: Case,
  calls: readonly ToolCall[],
  moved: { step: number; reference: number },
  earlier: { step: number; reference: number },
  context: string,
): boolean {
  if (effectOfCall(caseItem.input.tools, calls[moved.step - 1]!.name) !== 'read-only') return false;
  const reference = referenceCalls(caseItem)![moved.reference - 1]!;
  if (citedSteps(reference.arguments).includes(earlier.reference)) return false;
  const given = argumentsOf(calls[moved.step - 1]!);
  return Object.entries(argumentsOf(reference)).every(([key, value]) => {
    if (!isConcrete(value) || isGrounded(value, context)) return true;
    const own = given[key];
    if (holdsPlaceholder(own)) return !citedSteps(own).includes(earlier.step);
    return own !== undefined && sameValue(own, value);
  });
}

/** D11 finding on holistic splits with a reference chain (null elsewhere and for a parse failure). */
export const planAlignmentCheck: Check<Findings['planAlignment']> = {
  code: 'D11',
  description:
    'the plan aligned with the reference chain: missing and extra calls, unrequested state changes, unsound reorders, data used before it exists',
  run(caseItem, parsed) {
    const reference = referenceCalls(caseItem);
    if (caseItem.input.regime !== 'Holistic' || !reference || parsed.kind === 'parse_error')
      return null;
    const calls = predictedCalls(parsed);
    const { tools } = caseItem.input;
    const { pairs, missing, extra } = alignCalls(calls, reference);
    const context = groundingText(caseItem);
    const standIns = new Set<number>();
    const missingCalls = missing.map((index) => {
      const coveredBy =
        extra.find(
          (step) => !standIns.has(step) && standsIn(calls[step - 1]!, reference[index - 1]!, tools),
        ) ?? null;
      if (coveredBy !== null) standIns.add(coveredBy);
      return { reference: index, tool: reference[index - 1]!.name, coveredBy };
    });
    const serves = new Map<number, number>([
      ...pairs.map((pair) => [pair.step, pair.reference] as [number, number]),
      ...missingCalls.flatMap((missing) =>
        missing.coveredBy === null
          ? []
          : [[missing.coveredBy, missing.reference] as [number, number]],
      ),
    ]);
    const unsoundOrder: NonNullable<Findings['planAlignment']>['unsoundOrder'] = [];
    for (const moved of pairs) {
      const earlier = pairs.find(
        (other) =>
          other.reference < moved.reference &&
          other.step > moved.step &&
          !soundReorder(caseItem, calls, moved, other, context),
      );
      if (earlier)
        unsoundOrder.push({
          step: moved.step,
          tool: calls[moved.step - 1]!.name,
          before: earlier.step,
        });
    }
    return {
      pairs,
      referenceCalls: reference.length,
      missing: missingCalls,
      extra: extra
        .filter((step) => !standIns.has(step))
        .map((step) => ({
          step,
          tool: calls[step - 1]!.name,
          effect: effectOfCall(tools, calls[step - 1]!.name),
        })),
      unsoundOrder,
      dataFlow: dataFlowProblems(calls, reference, serves),
      futureData: calls.flatMap((call, index) =>
        citedSteps(call.arguments)
          .filter((cited) => cited > index)
          .map((cited) => ({ step: index + 1, cites: cited })),
      ),
    };
  },
};
