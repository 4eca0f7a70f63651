/** Finding JSON inside untrusted text: the one balanced-bracket scanner used by answer and verdict readers. */

/** End index (exclusive) of the balanced JSON object or array opening at `start` (string-aware), or -1 when it never closes. */
export function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index]!;
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return index + 1;
    }
  }
  return -1;
}
