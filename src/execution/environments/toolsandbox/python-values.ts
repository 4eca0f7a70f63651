/**
 * Python's value semantics where ToolSandbox's evaluation relies on them: `==` between JSON values
 * (True == 1, 1 == 1.0) and `str()` of a float, so that ported comparisons and `str.format`
 * fillings agree with the original.
 */

/** Python `a == b` for JSON-like values. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => pyEquals(value, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && pyEquals(a[key], b[key]));
  }
  return false;
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python `repr(float(x))`: `1.0`, `0.1`, `-0.0`, `1e+16`, `1e-05`, `inf`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(x);
  // Python switches to exponent notation below 1e-4 and from 1e16 on; JS at other bounds
  if (magnitude < 1e-4 || magnitude >= 1e16) {
    const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  const text = String(x);
  return text.includes('.') ? text : `${text}.0`;
}

/** Python's `"{:.Nf}".format(x)` (round-half-even on the binary value, like C's printf). */
export function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return pyFloatRepr(x);
  if (Math.abs(x) >= 1e21) {
    // integer-valued at this size: all digits exact
    const digitsText = BigInt(x).toString();
    return digitsText + (digits > 0 ? '.' + '0'.repeat(digits) : '');
  }
  // the double's exact decimal expansion, then round half to even on it (JS rounds ties up)
  const exact = Math.abs(x).toFixed(100).replace(/0+$/, '');
  const [whole, fraction = ''] = exact.split('.') as [string, string?];
  const kept = fraction.padEnd(digits, '0').slice(0, digits);
  const rest = fraction.slice(digits);
  let digitsText = whole + kept;
  const last = Number(digitsText.at(-1));
  const up = rest > '5' || (rest.startsWith('5') && (rest.length > 1 || last % 2 === 1));
  if (up) digitsText = (BigInt(digitsText) + 1n).toString().padStart(digitsText.length, '0');
  const intPart = digitsText.slice(0, digitsText.length - digits) || '0';
  const fracPart = digits > 0 ? '.' + digitsText.slice(digitsText.length - digits) : '';
  const negative = x < 0 || Object.is(x, -0);
  return (negative ? '-' : '') + intPart + fracPart;
}

/** A value marked as a Python float, so `str()` renders it with a decimal point. */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

/** Python `str.format(**values)` for plain `{name}` fields (the only kind ToolSandbox's templates use). */
export function pyFormat(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (!Object.hasOwn(values, name!)) throw new KeyError(name!);
    return pyStr(values[name!]);
  });
}

/** Raised where Python raises KeyError. */
export class KeyError extends Error {}

/** Python `str(value)` for JSON-like values. */
export function pyStr(value: unknown): string {
  if (value instanceof PyFloat) return value.toString();
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}
