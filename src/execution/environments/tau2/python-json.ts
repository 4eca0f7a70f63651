/**
 * Python's `json.dumps(model.model_dump())` for a value described by a zod schema: fields in the
 * model's order, `", "` and `": "` separators, non-ASCII escaped, and numbers printed as Python
 * would hold them (a `float` field as `128.0`, an `int` as `128`). This is the text tau2's tools
 * return to the agent. A JS number does not know whether it is a float, so the schema says.
 */
import { orderedKeys } from './key-order.js';
import { pyFloatRepr } from './python.js';
import { defOf, isIntSchema, type Schema } from './zod-def.js';

/** A JSON string literal as Python's `json.dumps` writes it (ensure_ascii). */
export function pyJsonString(text: string): string {
  let out = '"';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const char = text[index]!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function pyNumber(value: number, float: boolean): string {
  if (!float && Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  return pyFloatRepr(value);
}

/** The union member a value belongs to: the first that accepts it (tau2's unions are discriminated by a literal). */
function unionMember(options: Schema[], value: unknown): Schema | undefined {
  return options.find(
    (option) =>
      (option as unknown as { safeParse(input: unknown): { success: boolean } }).safeParse(value)
        .success,
  );
}

/**
 * Python's json.dumps of `value` as the model `schema` would dump it (without a schema, numbers
 * print as JSON does); `sortKeys` is json.dumps's sort_keys, as tau2's database hash uses it.
 */
export function pyJsonDumps(value: unknown, schema?: Schema, sortKeys = false): string {
  const def = schema ? defOf(schema) : undefined;
  if (def && (def.type === 'optional' || def.type === 'nullable' || def.type === 'default'))
    return pyJsonDumps(
      value,
      value === null || value === undefined ? undefined : def.innerType,
      sortKeys,
    );
  if (def?.type === 'union' && def.options)
    return pyJsonDumps(value, unionMember(def.options, value), sortKeys);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number')
    return pyNumber(value, def?.type === 'number' && !isIntSchema(schema!));
  if (typeof value === 'string') return pyJsonString(value);
  if (Array.isArray(value)) {
    const element = def?.type === 'array' ? def.element : undefined;
    return `[${value.map((item, index) => pyJsonDumps(item, def?.type === 'tuple' ? def.items?.[index] : element, sortKeys)).join(', ')}]`;
  }
  const object = value as Record<string, unknown>;
  const fieldSchema = (key: string): Schema | undefined =>
    def?.type === 'object' ? def.shape?.[key] : def?.type === 'record' ? def.valueType : undefined;
  const keys = sortKeys
    ? [...orderedKeys(object)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    : orderedKeys(object);
  return `{${keys.map((key) => `${pyJsonString(key)}: ${pyJsonDumps(object[key], fieldSchema(key), sortKeys)}`).join(', ')}}`;
}
