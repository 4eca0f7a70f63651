/**
 * Python's `repr()` of tool arguments and results: ToolSandbox's execution environment prints
 * `repr(result)` and writes the arguments into the call's code as a Python dict literal, so the
 * texts the agent sees are Python's. JSON numbers that are integers print as ints unless wrapped
 * in PyFloat (database float columns are).
 */
import { PyFloat, pyFloatRepr } from './python-values.js';

/** Python's repr of a str: single quotes unless the text has one and no double quote. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

/** Python `repr(value)` for JSON-like values. */
export function pyRepr(value: unknown): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) ? value.toFixed(0) : pyFloatRepr(value);
  if (typeof value === 'string') return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

/** Python `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` separators, floats as Python writes them. */
export function pyJsonDumps(value: unknown): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number')
    return Number.isInteger(value) ? value.toFixed(0) : pyFloatRepr(value);
  if (typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyJsonDumps(v)}`).join(', ')}}`;
}
