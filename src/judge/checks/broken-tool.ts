/**
 * D4: what the first predicted action does about the broken tool (paper §4.2.3, C.4): replace,
 * alter, retry, refuse or other.
 *
 * `alter` needs the called tool to be one the reference uses somewhere (chain, next steps or
 * remaining steps). A structural check cannot tell a valid alternative from an irrelevant listed
 * tool; a tool the reference itself relies on is the one sound signal that the call serves the task.
 */
import type { BrokenBehavior } from '../verdict.js';
import type { Case, ToolCall } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { isListedTool } from '../../dataset/tool-arguments.js';
import { referenceToolNames } from './answer-calls.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';
import { refusalLanguage } from './refusal.js';

type FirstAction = { kind: 'call'; call: ToolCall } | { kind: 'text'; text: string } | { kind: 'refusal' } | { kind: 'none' };

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
  return step.toolCall ? { kind: 'call', call: step.toolCall } : { kind: 'text', text: `${step.thought}\n${step.content ?? ''}` };
}

/** The behaviour category of one called tool name. */
function behaviorOfCall(caseItem: Case, name: string): BrokenBehavior {
  const { reference } = caseItem;
  if (reference.replacementTool && name === reference.replacementTool.name) return 'replace';
  if (name === reference.brokenToolName) return 'retry';
  if (isListedTool(caseItem.input, name) && referenceToolNames(caseItem).has(name)) return 'alter';
  return 'other';
}

/** D4 finding on step_wise_tool_broken (null elsewhere). */
export const brokenToolCheck: Check<Findings['brokenTool']> = {
  code: 'D4',
  description: 'the broken tool is not retried and the replacement (or another reference tool) is used (tool-broken)',
  run(caseItem, parsed) {
    if (caseItem.split !== 'step_wise_tool_broken') return null;
    const action = firstAction(parsed);
    if (action.kind === 'refusal') return { behavior: 'refuse', calledTool: null };
    if (action.kind === 'text') return { behavior: refusalLanguage(action.text) ? 'refuse' : 'other', calledTool: null };
    if (action.kind === 'none') return { behavior: 'other', calledTool: null };
    return { behavior: behaviorOfCall(caseItem, action.call.name), calledTool: action.call.name };
  },
};
