/**
 * D4: what the first predicted action does about the broken tool (paper §4.2.3, C.4): replace,
 * alter, retry, refuse or other. "Replace" and "alter" mean a successful recovery, so each needs
 * more than a name:
 * - replace: the designated replacement, called with values consistent with the failed call it
 *   repeats (no conflicting or invented value, no schema problem); otherwise `other`;
 * - alter: a read-only tool standing in for a read-only broken tool (it carries the broken tool's
 *   distinctive words and inputs, see `standsIn`), fed only by data available at that point.
 *   A different write is a different action, never an alternative.
 */
import { citedSteps } from '../../dataset/placeholders.js';
import {
  argumentSchemaProblems,
  hasArgumentSchema,
  isListedTool,
} from '../../dataset/tool-arguments.js';
import type { Case, ToolCall } from '../../dataset/case.js';
import { isPlaceholder } from '../../dataset/placeholders.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import type { BrokenBehavior } from '../verdict.js';
import { valueProblems } from './value-problems.js';
import { brokenCallOf } from './broken-call.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import { standsIn } from './plan-alignment.js';
import { refusalLanguage } from './refusal.js';
import { argumentsOf, groundingOf, holdsPlaceholder, isGrounded, isIdentifier } from './values.js';

type FirstAction =
  | { kind: 'call'; call: ToolCall }
  | { kind: 'text'; text: string }
  | { kind: 'refusal' }
  | { kind: 'none' };

/** The answer's first action: a call, a text-only step, an explicit refusal, or nothing readable. */
function firstAction(parsed: ParsedAnswer): FirstAction {
  if (parsed.kind === 'parse_error') return { kind: 'none' };
  if (parsed.kind === 'refusal') return { kind: 'refusal' };
  if (parsed.kind === 'plan') {
    const call = parsed.toolChain[0];
    return call ? { kind: 'call', call } : { kind: 'text', text: parsed.plan };
  }
  const step = parsed.steps[0];
  if (!step) return { kind: 'none' };
  return step.toolCall
    ? { kind: 'call', call: step.toolCall }
    : { kind: 'text', text: `${step.thought}\n${step.content ?? ''}` };
}

/** Why a replacement call does not recover, or null when its values and schema are sound. */
function replacementFault(caseItem: Case, call: ToolCall): string | null {
  const broken = brokenCallOf(caseItem);
  const problems = valueProblems(call, broken, 1, groundingOf(caseItem));
  if (problems.length > 0)
    return problems
      .map((problem) => `${problem.argument} ${problem.kind}: ${problem.detail}`)
      .join('; ');
  const tool = caseItem.input.tools.find((candidate) => candidate.name === call.name);
  const schema =
    tool && hasArgumentSchema(tool)
      ? argumentSchemaProblems(tool, call.arguments, { skip: isPlaceholder })
      : [];
  return schema.length > 0
    ? schema.map((problem) => `${problem.path || '(arguments)'} ${problem.kind}`).join('; ')
    : null;
}

/**
 * Whether every input of a call exists now: identifiers shown to the planner, placeholders citing
 * executed steps only (options such as "credits" need no source).
 */
function fedNow(caseItem: Case, call: ToolCall): boolean {
  const executed = caseItem.input.trajectoryPrefix.reduce(
    (count, message) => count + message.toolCalls.length,
    0,
  );
  const context = groundingOf(caseItem);
  return Object.entries(argumentsOf(call)).every(([key, value]) => {
    if (holdsPlaceholder(value)) return citedSteps(value).every((step) => step <= executed);
    return !isIdentifier(value, key) || isGrounded(value, context.shown);
  });
}

function behaviorOfCall(
  caseItem: Case,
  call: ToolCall,
): { behavior: BrokenBehavior; note?: string } {
  const { reference } = caseItem;
  if (reference.replacementTool && call.name === reference.replacementTool.name) {
    const fault = replacementFault(caseItem, call);
    return fault
      ? { behavior: 'other', note: `the replacement is called with ${fault}` }
      : { behavior: 'replace' };
  }
  if (call.name === reference.brokenToolName) return { behavior: 'retry' };
  const broken = brokenCallOf(caseItem);
  const listed =
    isListedTool(caseItem.input, call.name) && !reference.extraneousToolNames.includes(call.name);
  if (listed && broken && standsIn(call, broken, caseItem.input.tools) && fedNow(caseItem, call))
    return { behavior: 'alter' };
  return { behavior: 'other' };
}

/** D4 finding on step_wise_tool_broken (null elsewhere). */
export const brokenToolCheck: Check<Findings['brokenTool']> = {
  code: 'D4',
  description:
    'the broken tool is not retried; the replacement (with consistent values) or a genuine alternative is used (tool-broken)',
  run(caseItem, parsed) {
    if (caseItem.split !== 'step_wise_tool_broken') return null;
    const action = firstAction(parsed);
    if (action.kind === 'refusal') return { behavior: 'refuse', calledTool: null };
    if (action.kind === 'text')
      return { behavior: refusalLanguage(action.text) ? 'refuse' : 'other', calledTool: null };
    if (action.kind === 'none') return { behavior: 'other', calledTool: null };
    const { behavior, note } = behaviorOfCall(caseItem, action.call);
    return note
      ? { behavior, calledTool: action.call.name, note }
      : { behavior, calledTool: action.call.name };
  },
};
