/**
 * Numbers JSON cannot carry. `JSON.parse('1e400')` gives `Infinity`, which `JSON.stringify` writes
 * as `null`: a value silently changed between the input and the case. Construction refuses such
 * input instead, naming where the number is.
 */

/** The path (`a.b[2]`) of the first number in `value` that is not finite, or null when there is none. */
export function nonFinitePath(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'number' && !Number.isFinite(node)) return at || '(value)';
    if (node === null || typeof node !== 'object') continue;
    const entries = Array.isArray(node)
      ? node.map((child, index): [unknown, string] => [child, `${at}[${index}]`])
      : Object.entries(node).map(([key, child]): [unknown, string] => [
          child,
          at ? `${at}.${key}` : key,
        ]);
    stack.push(...entries.reverse());
  }
  return null;
}

/** The message of a non-finite number's issue. */
export const NON_FINITE_MESSAGE =
  'a number too large (or small) for a 64-bit float, e.g. 1e400: JSON would turn it into null; write it as a string or a smaller number';
