/**
 * Finds the one JSON verdict object in an untrusted judge reply: thinking blocks and code fences
 * stripped, prose around the JSON tolerated, nothing repaired (a truncated reply stays unreadable).
 */
import { balancedEnd } from '../json-span.js';
import { JsonTooDeepError, parseUntrustedJson, textNestingDepth } from '../json-depth.js';
import { DEFAULT_LIMITS } from '../limits.js';

/** Keys that mark a JSON object as a verdict attempt. */
const VERDICT_KEY =
  /^(is_correct|grade|score|error_list|errors|behavior|category|category_name|refused|E[1-6](_\w*)?)$/;

/** The verdict object, or why none could be read. */
export type ReplyJson =
  | { ok: true; value: Record<string, unknown>; embedded: boolean }
  | {
      ok: false;
      problem:
        | 'empty'
        | 'no-json'
        | 'truncated'
        | 'no-verdict-keys'
        | 'ambiguous'
        | 'not-an-object'
        | 'too-deep';
      message: string;
    };

function parseObject(text: string, maxDepth: number): Record<string, unknown> | null {
  try {
    const value: unknown = parseUntrustedJson(text, maxDepth);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const isVerdictLike = (object: Record<string, unknown>) =>
  Object.keys(object).some((key) => VERDICT_KEY.test(key));

/** Strips closed thinking blocks; reports an unclosed one (the reply ended while thinking). */
function stripThinking(raw: string): { text: string; unclosed: boolean } {
  const text = raw.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  return { text, unclosed: /<(think|thinking|reasoning)>/i.test(text) };
}

/** Extracts the verdict object of a judge reply; one nested past `maxDepth` (the JSON cap) is none. */
export function extractReplyJson(
  raw: string,
  maxDepth: number = DEFAULT_LIMITS.jsonDepth,
): ReplyJson {
  const { text: stripped, unclosed: thinkingOpen } = stripThinking(raw);
  const text = stripped.trim();
  if (thinkingOpen)
    return { ok: false, problem: 'truncated', message: 'the reply ends inside a thinking block' };
  if (!text) return { ok: false, problem: 'empty', message: 'the reply is empty' };
  if (textNestingDepth(text, maxDepth) > maxDepth)
    return {
      ok: false,
      problem: 'too-deep',
      message: `the reply is ${new JsonTooDeepError(maxDepth).message}`,
    };
  return wholeReply(text, maxDepth) ?? embeddedVerdict(text, maxDepth);
}

/** The reply as one JSON value: the object, or why another value is none; null when not JSON. */
function wholeReply(text: string, maxDepth: number): ReplyJson | null {
  let value: unknown;
  try {
    value = parseUntrustedJson(text, maxDepth);
  } catch {
    return null;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return { ok: true, value: value as Record<string, unknown>, embedded: false };
  return {
    ok: false,
    problem: 'not-an-object',
    message: `the reply is JSON but not one object (${Array.isArray(value) ? 'an array' : typeof value})`,
  };
}

/** The complete objects in a text (with their spans), and where braces open that never close. */
function scanObjects(
  unfenced: string,
  maxDepth: number,
): {
  found: { object: Record<string, unknown>; start: number; end: number }[];
  unclosed: number[];
} {
  const found: { object: Record<string, unknown>; start: number; end: number }[] = [];
  const unclosed: number[] = [];
  for (let index = 0; index < unfenced.length; index += 1) {
    if (unfenced[index] !== '{') continue;
    const end = balancedEnd(unfenced, index);
    // A brace that never closes is skipped, so objects after a stray brace are still found.
    if (end < 0) unclosed.push(index);
    else {
      const object = parseObject(unfenced.slice(index, end), maxDepth);
      if (object) found.push({ object, start: index, end });
      if (object) index = end - 1;
    }
  }
  return { found, unclosed };
}

/** The one verdict object embedded in prose (fenced or not), or why there is none. */
function embeddedVerdict(text: string, maxDepth: number): ReplyJson {
  // Fence markers are removed (not their content) so a fenced object is found by the scan below.
  const unfenced = text.replace(/```[a-zA-Z0-9_-]*/g, ' ');
  const { found, unclosed } = scanObjects(unfenced, maxDepth);
  const covered = (position: number) =>
    found.some((span) => position >= span.start && position < span.end);
  const keyPositions = Array.from(
    unfenced.matchAll(/"(is_correct|grade|error_list|errors|behavior|refused)"\s*:/g),
    (match) => match.index,
  );
  // A verdict key outside every complete object, after a brace that never closes: the verdict was cut off.
  const truncatedVerdict =
    unclosed.length > 0 &&
    keyPositions.some((position) => position > unclosed[0]! && !covered(position));
  const verdicts = found.map((span) => span.object).filter(isVerdictLike);
  const distinct = [
    ...new Map(verdicts.map((object) => [JSON.stringify(object), object])).values(),
  ];
  if (truncatedVerdict)
    return {
      ok: false,
      problem: 'truncated',
      message: 'the JSON verdict is incomplete (the reply looks truncated)',
    };
  if (distinct.length > 1)
    return {
      ok: false,
      problem: 'ambiguous',
      message: `the reply holds ${distinct.length} different JSON verdicts`,
    };
  if (distinct.length === 1) return { ok: true, value: distinct[0]!, embedded: true };
  if (found.length > 0)
    return {
      ok: false,
      problem: 'no-verdict-keys',
      message: 'the reply holds JSON but none of the verdict keys',
    };
  if (unclosed.length > 0)
    return {
      ok: false,
      problem: 'truncated',
      message: 'the reply opens a JSON object that never closes',
    };
  return { ok: false, problem: 'no-json', message: 'the reply holds no JSON object' };
}
