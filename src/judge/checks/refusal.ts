/**
 * D5: refusal detection. An explicit REJECT is a refusal; otherwise only an answer that does
 * nothing (no tool call at all) is read for refusal language. A parse failure is never a refusal.
 */
import type { Attempt } from '../../settings/attempt.js';
import type { Check } from './check.js';
import type { Findings } from './findings.js';

// Conservative on purpose: each pattern needs the task (or the speaker) as the thing that cannot be done.
const REFUSAL_PATTERNS: RegExp[] = [
  /\bI\s*(?:cannot|can't|can not|am unable to|am not able to|won't be able to|will not be able to|have no way to)\s+(?:complete|proceed|fulfil|fulfill|help|perform|do|carry out|accomplish|continue|answer|process|assist|access|view|see|open|find|determine|plan|solve|book|execute)\b/i,
  /\b(?:cannot|can't|can not|could not|couldn't)\s+be\s+(?:completed|done|fulfilled|fulfilled|accomplished|solved|performed|carried out|answered|determined|planned|executed|satisfied)\b/i,
  /\b(?:not possible|impossible|infeasible|not feasible)\s+to\s+(?:complete|fulfil|fulfill|do|accomplish|solve|answer|determine|plan|proceed|perform|carry out|satisfy)\b/i,
  /\b(?:task|request|query|this)\s+is\s+(?:not possible|impossible|infeasible|unsolvable|not solvable|not feasible)\b/i,
  /\bunable to\s+(?:complete|proceed|fulfil|fulfill|perform|solve|answer|carry out|accomplish|continue|plan|satisfy)\b/i,
  /\b(?:missing|insufficient|lacking|not enough)\s+(?:the\s+)?(?:required\s+|necessary\s+|key\s+|needed\s+)?(?:information|details|data|input)\b/i,
  /\b(?:information|details|data|image|file|attachment)\s+(?:is|are)\s+(?:missing|not provided|not available|unavailable)\b/i,
  /\bno\s+(?:available\s+|suitable\s+|appropriate\s+|listed\s+|relevant\s+)?tools?\s+(?:is\s+|are\s+)?(?:available|that can|can|capable|provides?|supports?|allows?|for)\b/i,
  /\bnone of the (?:listed |available |provided )?tools\b/i,
  /\bconstraints?\s+(?:are|is)\s+(?:contradictory|conflicting|incompatible|mutually exclusive)\b/i,
  /^\s*REJECT(?:ED)?\b/,
];

// A clause that only says what to do *if* something fails is a contingency, not a refusal.
const CONDITIONAL = /\b(?:if|when|whenever|unless|in case|otherwise)\b/i;

/** The sentence of `text` that refuses the task, or null; sentences that are contingency plans never count. */
export function refusalLanguage(text: string): string | null {
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    for (const pattern of REFUSAL_PATTERNS) {
      const match = pattern.exec(sentence);
      if (!match) continue;
      if (CONDITIONAL.test(sentence.slice(0, match.index))) continue;
      return sentence.trim().slice(0, 240);
    }
  }
  return null;
}

/** The text of an answer that calls no tool at all, or null when it calls one (then it is acting, not refusing). */
export function textOnlyContent(attempt: Attempt): string | null {
  if (attempt.kind === 'plan') return attempt.toolChain.length === 0 ? attempt.plan : null;
  if (attempt.kind === 'steps') {
    if (attempt.steps.some((step) => step.toolCall)) return null;
    return attempt.steps.flatMap((step) => [step.thought, step.content ?? '']).join('\n');
  }
  return attempt.reason;
}

/** D5 finding: explicit REJECT, or refusal language in a text-only answer. */
export const refusalCheck: Check<Findings['refusal']> = {
  code: 'D5',
  description: 'refusal detection (explicit REJECT, or refusal language in a text-only answer); a parse failure is never a refusal',
  run(_caseItem, parsed) {
    if (parsed.kind === 'parse_error') return { refused: false, explicit: false, evidence: null };
    if (parsed.kind === 'refusal') return { refused: true, explicit: true, evidence: parsed.reason.trim().slice(0, 240) || 'REJECT' };
    const text = textOnlyContent(parsed);
    const evidence = text === null ? null : refusalLanguage(text);
    return { refused: evidence !== null, explicit: false, evidence };
  },
};
