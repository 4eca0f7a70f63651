/**
 * Untrusted JSON with a nesting cap. `JSON.parse` itself survives any depth, but almost everything
 * after it recurses (`JSON.stringify`, zod, canonical keys, the checks): a reply nested 5,000 levels
 * deep overflowed the stack in the result writer. So untrusted JSON is parsed here, and a value
 * nested deeper than the cap is refused before anything recursive sees it.
 */
import { DEFAULT_LIMITS } from './limits.js';

/** A JSON value nested deeper than the cap; a `SyntaxError` so callers that catch parse errors catch it too. */
export class JsonTooDeepError extends SyntaxError {
  constructor(readonly maxDepth: number) {
    super(
      `nested more than ${maxDepth} levels deep (the cap on untrusted JSON, APB_MAX_JSON_DEPTH)`,
    );
    this.name = 'JsonTooDeepError';
  }
}

/** True when `value` nests more than `maxDepth` arrays/objects deep (iterative; stops at the first too-deep node). */
export function deeperThan(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The deepest bracket nesting of JSON-like text outside strings (for text handed to a recursive parser such as jsonrepair). */
export function textNestingDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index += 1;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      depth += 1;
      if (depth > max && (max = depth) > stopAbove) return max;
    } else if ((code === 125 || code === 93) && depth > 0) depth -= 1;
  }
  return max;
}

/** `JSON.parse` for untrusted text: throws `SyntaxError` for bad JSON and `JsonTooDeepError` past the cap. */
export function parseUntrustedJson(
  text: string,
  maxDepth: number = DEFAULT_LIMITS.jsonDepth,
): unknown {
  const value: unknown = JSON.parse(text);
  if (deeperThan(value, maxDepth)) throw new JsonTooDeepError(maxDepth);
  return value;
}
