/**
 * Python dict order for objects whose keys look like integers. JS puts integer-like keys first in
 * numeric order (`{"9": …, "10": …}` iterates 10, 9), Python keeps file order — and retail's
 * product and variant ids are such keys. The file's own order is read back from the JSON text and
 * kept beside the parsed objects, so tools iterate and print them in tau2's order.
 */

const ORDER = new WeakMap<object, readonly string[]>();
const INTEGER_LIKE = /^(0|[1-9]\d*)$/;

/** The keys of an object in Python's order: the file's when one was recorded, else insertion order. */
export function orderedKeys(object: object): readonly string[] {
  return ORDER.get(object) ?? Object.keys(object);
}

/** Records `keys` as the Python order of `object`. */
export function setKeyOrder(object: object, keys: readonly string[]): void {
  ORDER.set(object, keys);
}

/** A path of object keys and array indexes from the document root. */
type JsonPath = (string | number)[];

/**
 * Scans JSON text once and returns, for every object holding an integer-like key, its path and
 * its keys in file order. The text must be valid JSON (it was parsed already).
 */
export function integerKeyedObjects(text: string): { path: JsonPath; keys: string[] }[] {
  const found: { path: JsonPath; keys: string[] }[] = [];
  const stack: { keys: string[] | null; index: number }[] = [];
  const path: JsonPath = [];
  let expectKey = false;
  // Jump from one structural character to the next; numbers, literals, spaces and colons need no look.
  const structural = /[{}[\],"]/g;
  for (let match = structural.exec(text); match; match = structural.exec(text)) {
    const at = match.index;
    const char = text[at];
    if (char === '"') {
      let end = text.indexOf('"', at + 1);
      while (isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (expectKey) {
        const raw = text.slice(at + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        stack.at(-1)!.keys!.push(key);
        path.push(key);
        expectKey = false;
      }
      structural.lastIndex = end + 1;
    } else if (char === '{' || char === '[') {
      stack.push({ keys: char === '{' ? [] : null, index: 0 });
      if (char === '[') path.push(0);
      expectKey = char === '{';
    } else if (char === ',') {
      const top = stack.at(-1)!;
      path.pop();
      if (top.keys) expectKey = true;
      else path.push((top.index += 1));
    } else {
      const top = stack.pop()!;
      if (top.keys ? top.keys.length > 0 : true) path.pop();
      if (top.keys?.some((key) => INTEGER_LIKE.test(key)))
        found.push({ path: [...path], keys: top.keys });
      expectKey = false;
    }
  }
  return found;
}

/** True when the quote at `at` is escaped (an odd run of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
}

/** Follows a path into a parsed value. */
export function atPath(root: unknown, path: JsonPath): unknown {
  let value = root;
  for (const step of path) value = (value as Record<string | number, unknown> | undefined)?.[step];
  return value;
}
