/**
 * D5: refusal detection. An explicit REJECT is a refusal; otherwise only an answer that does
 * nothing (no tool call at all) is read for refusal language. An answer that holds no JSON is a
 * refusal only when it is reasoned prose that refuses (`proseRefusal`); empty, cut-off or
 * garbage text never is.
 */
import type { Attempt } from '../../settings/attempt.js';
import type { AnswerText, Check } from './check.js';
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

/** Thinking blocks and code fences removed: the words a reader would see. */
function visibleText(text: string): string {
  return text
    .replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '')
    .replace(/```\w*/g, '')
    .trim();
}

// A reasoned refusal says why: eight words at least, enough for "cannot … because / no tool …".
const REASONED_WORDS = 8;

/**
 * Whether raw text is readable prose a judge may assess: not cut off by the token limit, natural
 * language (at least eight words, mostly letters). Empty, truncated or garbage text is not.
 */
export function readableProse(answer: AnswerText): boolean {
  if (answer.truncated) return false;
  const text = visibleText(answer.text);
  const words = text.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  const letters = text.replace(/[^a-z]/gi, '').length;
  return words.length >= REASONED_WORDS && letters >= text.replace(/\s/g, '').length * 0.6;
}

// A reason, not just a verdict: "because …", "… : no tool …", "none of …", "… is missing".
const REASON_MARKER =
  /[:—–]|\b(?:because|since|due to|given that|without|there (?:is|are) no|no (?:\w+ )?(?:tools?|way|functions?|information|access|means)|none of|not (?:available|provided|listed|possible|given)|missing|lacks?|unavailable|requires?|needs?)\b/i;

/**
 * Whether raw text that holds no JSON is an explicit, reasoned refusal: readable prose with a
 * refusal sentence and a reason marker. Returns the text (clipped), or null.
 */
export function proseRefusal(answer: AnswerText): string | null {
  if (!readableProse(answer)) return null;
  const text = visibleText(answer.text);
  // The whole text is the evidence: its reason may sit in the sentence after the refusal.
  return refusalLanguage(text) && REASON_MARKER.test(text) ? text.slice(0, 400) : null;
}

/** D5 finding: explicit REJECT, refusal language in a text-only answer, or a reasoned prose refusal without JSON. */
export const refusalCheck: Check<Findings['refusal']> = {
  code: 'D5',
  description:
    'refusal detection (explicit REJECT, refusal language in a text-only answer, or a reasoned prose refusal without JSON); empty, cut-off or garbage text is never a refusal',
  run(_caseItem, parsed, answer) {
    if (parsed.kind === 'parse_error') {
      const evidence = answer ? proseRefusal(answer) : null;
      return evidence
        ? { refused: true, explicit: false, evidence, prose: true }
        : { refused: false, explicit: false, evidence: null };
    }
    if (parsed.kind === 'refusal')
      return {
        refused: true,
        explicit: true,
        evidence: parsed.reason.trim().slice(0, 240) || 'REJECT',
      };
    const text = textOnlyContent(parsed);
    const evidence = text === null ? null : refusalLanguage(text);
    return { refused: evidence !== null, explicit: false, evidence };
  },
};
