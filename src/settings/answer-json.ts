/**
 * Finds the JSON value in untrusted model text: fenced blocks, prose around JSON, thinking
 * blocks, and (optionally) near-JSON repaired by `jsonrepair`.
 */
import { jsonrepair } from 'jsonrepair';
import { balancedEnd } from '../json-span.js';
import { JsonTooDeepError, parseUntrustedJson, textNestingDepth } from '../json-depth.js';
import { DEFAULT_LIMITS } from '../limits.js';

export interface ExtractedJson {
  value: unknown;
  /** True when the text had to be repaired (single quotes, trailing commas, truncation…). */
  repaired: boolean;
  /** True when the JSON was surrounded by other text or a code fence. */
  embedded: boolean;
}

function tryParse(text: string, maxDepth: number): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseUntrustedJson(text, maxDepth) };
  } catch {
    return { ok: false };
  }
}

/** Candidate texts in order of trust: the whole answer, fenced blocks, balanced spans. */
function candidates(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g))
    out.push(match[1]!.trim());
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char !== '{' && char !== '[') continue;
    const end = balancedEnd(text, index);
    if (end > 0) {
      out.push(text.slice(index, end));
      if (char === '{') index = end - 1;
    }
  }
  return out;
}

/**
 * Extracts the first JSON object or array in `text`; null when there is none. Throws
 * `JsonTooDeepError` when the text nests brackets deeper than the cap (`maxDepth`, default
 * `DEFAULT_LIMITS`'): nothing here (nor the recursive `jsonrepair`) is asked to look at it, and the
 * caller records a parse failure.
 */
export function extractJson(
  raw: string,
  options: { repair: boolean; maxDepth?: number } = { repair: true },
): ExtractedJson | null {
  const maxDepth = options.maxDepth ?? DEFAULT_LIMITS.jsonDepth;
  const text = raw.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').trim();
  if (!text) return null;
  if (textNestingDepth(text, maxDepth) > maxDepth) throw new JsonTooDeepError(maxDepth);
  const whole = tryParse(text, maxDepth);
  if (whole.ok && whole.value !== null && typeof whole.value === 'object')
    return { value: whole.value, repaired: false, embedded: false };
  for (const candidate of candidates(text)) {
    const parsed = tryParse(candidate, maxDepth);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object')
      return { value: parsed.value, repaired: false, embedded: true };
  }
  if (!options.repair) return null;
  const open = text.search(/[{[]/);
  if (open < 0) return null;
  const close = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  for (const slice of [text.slice(open, close > open ? close + 1 : undefined), text.slice(open)]) {
    try {
      const value = parseUntrustedJson(jsonrepair(slice), maxDepth);
      if (value !== null && typeof value === 'object')
        return { value, repaired: true, embedded: open > 0 };
    } catch {
      // try the next slice
    }
  }
  return null;
}
