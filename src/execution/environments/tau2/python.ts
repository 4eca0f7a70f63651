/**
 * The few Python behaviours tau2's tools depend on, reproduced so a tool gives the same result and
 * the same error text as its Python original: `round(x, n)`, `repr(float)`, type names in
 * TypeError/AttributeError messages, dict lookups, `str.lower`, and exceptions as error text.
 */

/** A Python exception raised inside a tool; tau2 returns it to the agent as `Error: <message>`. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Python's `type(value).__name__` for a JSON value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'dict';
}

/** Python's `repr(value)` for the JSON values arguments can hold (quotes chosen as Python does). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pyFloatRepr(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t');
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${pyRepr(key)}: ${pyRepr(item)}`)
    .join(', ')}}`;
}

/** Python's `repr(float)`: the shortest round-trip digits, `1.0` for integral values, exponent outside [1e-4, 1e16). */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

/**
 * Python's `round(value, digits)` for floats: the correctly rounded decimal, ties to even. JS's
 * `toFixed` is correctly rounded too except on exact binary ties, where it rounds away from zero.
 */
export function pyRound(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  // toFixed(100) is the exact binary value's decimal expansion for any amount these tools handle.
  const fraction = Math.abs(value).toFixed(100).split('.')[1] ?? '';
  const tail = fraction.slice(digits);
  if (tail[0] === '5' && /^0*$/.test(tail.slice(1))) {
    const low = Math.floor(Math.abs(value) * 10 ** digits);
    const even = low % 2 === 0 ? low : low + 1;
    return Math.sign(value) * (even / 10 ** digits);
  }
  const rounded = Number(value.toFixed(digits));
  return rounded === 0 && value < 0 ? -0 : rounded;
}

/** `key in mapping` as Python evaluates it: a list or dict key raises TypeError; other non-strings never match string keys. */
export function pyHasKey(mapping: { has(key: string): boolean }, key: unknown): boolean {
  if (Array.isArray(key) || (key !== null && typeof key === 'object'))
    throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' && mapping.has(key);
}

/** `value.lower()`: an AttributeError for anything but a string. */
export function pyLower(value: unknown): string {
  if (typeof value !== 'string')
    throw new ToolError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** Deep equality of JSON values with key order ignored and list order kept; `scalar` decides leaves. */
export function jsonEqual(
  a: unknown,
  b: unknown,
  scalar: (x: unknown, y: unknown) => boolean,
): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return scalar(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as unknown[]).length &&
      a.every((item, index) => jsonEqual(item, (b as unknown[])[index], scalar))
    );
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key], scalar))
  );
}

/** Python's `==` on scalars: 1 == 1.0, and True == 1 as Python has it. */
const pyScalarEquals = (a: unknown, b: unknown) =>
  (typeof a === 'boolean' || typeof b === 'boolean') &&
  (typeof a === 'number' || typeof b === 'number')
    ? Number(a) === Number(b)
    : a === b;

/** Python's `==` between two JSON values (1 == 1.0, key order ignored, True == 1). */
export function pyEquals(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b, pyScalarEquals);
}

/** `for x in value`: a list's items, a string's characters, a dict's keys; a TypeError for anything else. */
export function pyIter(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (value !== null && typeof value === 'object') return Object.keys(value);
  throw new ToolError(`'${pyTypeName(value)}' object is not iterable`);
}

/** `len(value)`. */
export function pyLen(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'string') return [...value].length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  throw new ToolError(`object of type '${pyTypeName(value)}' has no len()`);
}

/** `container.count(item)` for a list (items equal by `==`) or a string (non-overlapping substrings). */
export function pyCount(container: unknown, item: unknown): number {
  if (Array.isArray(container))
    return container.filter((element) => pyEquals(element, item)).length;
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new ToolError(`must be str, not ${pyTypeName(item)}`);
    return item === '' ? [...container].length + 1 : container.split(item).length - 1;
  }
  throw new ToolError(`'${pyTypeName(container)}' object has no attribute 'count'`);
}

/** `sorted(value)`: strings by code point, numbers by value; mixing them is Python's TypeError (worded for the first mixed neighbours, as timsort meets them). */
export function pySorted(value: unknown): unknown[] {
  const items = [...pyIter(value)];
  const kind = (item: unknown) =>
    typeof item === 'number' || typeof item === 'boolean' ? 'number' : pyTypeName(item);
  const mixed = items.findIndex(
    (item, index) => index > 0 && kind(item) !== kind(items[index - 1]),
  );
  if (mixed > 0)
    throw new ToolError(
      `'<' not supported between instances of '${pyTypeName(items[mixed])}' and '${pyTypeName(items[mixed - 1])}'`,
    );
  if (
    items.length > 1 &&
    items.some((item) => item === null || (typeof item === 'object' && !Array.isArray(item)))
  )
    throw new ToolError(
      `'<' not supported between instances of '${pyTypeName(items[1])}' and '${pyTypeName(items[0])}'`,
    );
  const numeric = items.length > 0 && kind(items[0]) === 'number';
  return items.sort((a, b) => (numeric ? Number(a) - Number(b) : a! < b! ? -1 : a! > b! ? 1 : 0));
}

/** Python's `str(value)` (an f-string field): strings as they are, anything else as its repr. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}
