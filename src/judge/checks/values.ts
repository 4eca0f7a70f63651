/**
 * Argument values as a careful reader compares them: normalised (whitespace, case, number formats,
 * arithmetic spacing and value), placeholders told apart from literals, and "grounded" meaning the
 * value appears in what the planner was shown (query, system prompt, trajectory prefix). The rules
 * and their limits: docs/rules-judge.md ("Argument values").
 */
import type { Case, ToolCall } from '../../dataset/case.js';
import { isPlaceholder } from '../../dataset/placeholders.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whitespace collapsed and trimmed, lower case. */
export function normalizedText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A number written as a number or as a numeric string (`"1,200.50"`, `"$30"`), else null. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/^\$/, '');
  if (!/^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(text)) return null;
  return Number(text.replace(/,/g, ''));
}

/** The value of a plain arithmetic expression (numbers, + - * /, parentheses), or null when it is not one. */
export function arithmeticValue(text: string): number | null {
  const source = text.replace(/\s+/g, '');
  if (!/^[-+*/().\d]+$/.test(source) || !/\d[-+*/]/.test(source)) return null;
  let index = 0;
  const peek = () => source[index];
  const expression = (): number => {
    let value = term();
    while (peek() === '+' || peek() === '-')
      value = source[index++] === '+' ? value + term() : value - term();
    return value;
  };
  const term = (): number => {
    let value = factor();
    while (peek() === '*' || peek() === '/')
      value = source[index++] === '*' ? value * factor() : value / factor();
    return value;
  };
  const factor = (): number => {
    if (peek() === '-' || peek() === '+') return source[index++] === '-' ? -factor() : factor();
    if (peek() === '(') {
      index += 1;
      const value = expression();
      if (source[index++] !== ')') throw new Error('unbalanced');
      return value;
    }
    const match = /^\d+(?:\.\d+)?/.exec(source.slice(index));
    if (!match) throw new Error('not a number');
    index += match[0].length;
    return Number(match[0]);
  };
  try {
    const value = expression();
    return index === source.length && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Whether a value holds a placeholder anywhere (then it is not compared as a literal). */
export function holdsPlaceholder(value: unknown): boolean {
  if (isPlaceholder(value)) return true;
  if (Array.isArray(value)) return value.some(holdsPlaceholder);
  if (isObject(value)) return Object.values(value).some(holdsPlaceholder);
  return false;
}

const closeTo = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Whether two literal values mean the same: numbers by value (numeric strings included),
 * arithmetic by value, strings trimmed, whitespace-collapsed and case-folded, lists of plain
 * values as multisets (ids lists carry no order), other lists and objects element-wise.
 */
export function sameValue(left: unknown, right: unknown): boolean {
  // A placeholder stands for a value it does not state: nothing to contradict.
  if (isPlaceholder(left) || isPlaceholder(right)) return true;
  const [a, b] = [numberOf(left), numberOf(right)];
  if (a !== null && b !== null) return closeTo(a, b);
  if (typeof left === 'string' && typeof right === 'string') {
    if (normalizedText(left) === normalizedText(right)) return true;
    // "256.67-226.49" and "256.67 - 226.49" are one expression; "2 * (350 - 122)" and "2*350-244" one value.
    // A bare "2024-05-18" is a date, not a subtraction: values are compared only for real expressions.
    const arithmetic = /^[-+*/().\d\s]+$/;
    if (
      arithmetic.test(left) &&
      arithmetic.test(right) &&
      left.replace(/\s+/g, '') === right.replace(/\s+/g, '')
    )
      return true;
    const expression = (text: string) => arithmetic.test(text) && /[+*/()]|\s-\s/.test(text);
    if (!expression(left) || !expression(right)) return false;
    const [x, y] = [arithmeticValue(left), arithmeticValue(right)];
    return x !== null && y !== null && closeTo(x, y);
  }
  if (typeof left === 'boolean' || typeof right === 'boolean')
    return String(left).toLowerCase() === String(right).toLowerCase();
  if (Array.isArray(left) && Array.isArray(right)) {
    if (left.length !== right.length) return false;
    if ([...left, ...right].every((item) => item === null || typeof item !== 'object')) {
      const remaining = [...right];
      return left.every((item) => {
        const at = remaining.findIndex((other) => sameValue(item, other));
        return at >= 0 && remaining.splice(at, 1).length === 1;
      });
    }
    return left.every((item, index) => sameValue(item, right[index]));
  }
  if (isObject(left) && isObject(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    return [...keys].every((key) =>
      sameValue(
        Object.hasOwn(left, key) ? left[key] : undefined,
        Object.hasOwn(right, key) ? right[key] : undefined,
      ),
    );
  }
  return (
    left === right ||
    ((left === undefined || left === null || left === '') &&
      (right === undefined || right === null || right === ''))
  );
}

/** Free text (five words or more: a summary, a message, a note), which no literal comparison can judge. */
export function isProse(value: unknown): boolean {
  return typeof value === 'string' && value.trim().split(/\s+/).length >= 5;
}

/** Whether a reference value is a literal worth comparing (not a placeholder, not empty, not free text). */
export function isConcrete(value: unknown): boolean {
  if (value === undefined || value === null || holdsPlaceholder(value) || isProse(value))
    return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** What values can be grounded in: everything the planner was shown, and the user's request alone. */
export interface Grounding {
  /** Query, system prompt, every prefix message and call (normalised). */
  shown: string;
  /** Query and system prompt only: where a value "mentioned in the user request" must come from. */
  request: string;
  /** The query alone, normalised. */
  query: string;
}

/** The grounding texts of a case. */
export function groundingOf(caseItem: Case): Grounding {
  return {
    shown: groundingText(caseItem),
    request: normalizedText(`${caseItem.input.query}\n${caseItem.input.systemPrompt ?? ''}`),
    query: normalizedText(caseItem.input.query),
  };
}

/** What the planner was shown, normalised for grounding: query, system prompt, every prefix message and call. */
export function groundingText(caseItem: Case): string {
  const { query, systemPrompt, trajectoryPrefix } = caseItem.input;
  const parts = [query, systemPrompt ?? ''];
  for (const message of trajectoryPrefix) {
    parts.push(message.text, message.thought ?? '', message.action ?? '');
    for (const call of message.toolCalls) parts.push(JSON.stringify(call.arguments ?? null));
  }
  return normalizedText(parts.join('\n'));
}

/** Whether a literal appears in the grounding text (numbers as whole numbers, lists and objects leaf by leaf). */
export function isGrounded(value: unknown, context: string): boolean {
  if (value === null || value === undefined || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every((item) => isGrounded(item, context));
  if (isObject(value)) return Object.values(value).every((item) => isGrounded(item, context));
  const number = numberOf(value);
  if (number !== null) {
    const whole = (written: string) =>
      new RegExp(`(?<![\\d.,])${written.replace(/[.$]/g, '\\$&')}(?![\\d]|[.,]\\d)`).test(context);
    return whole(String(number)) || whole(normalizedText(String(value)));
  }
  const text = normalizedText(String(value));
  return text === '' || context.includes(text);
}

/**
 * Whether a literal looks like an identifier a planner could only have copied or invented: a
 * token with letters and digits (`PEP4E0`, `raj_sanchez_7340`), a `#`-code, or a number given to
 * an `…id` argument. Free text, dates and plain amounts are not identifiers.
 */
export function isIdentifier(value: unknown, argument: string): boolean {
  const idArgument = /(?:^|_)id$|Id$|_ids?$/.test(argument);
  if (typeof value === 'number') return idArgument;
  if (typeof value !== 'string') return false;
  const text = value.trim();
  if (/\s/.test(text) || text.length < 3) return false;
  if (/^#\w+/.test(text)) return true;
  return (/[a-z]/i.test(text) && /\d/.test(text)) || (idArgument && /^\d+$/.test(text));
}

/** The top-level arguments of a call as an object (a non-object counts as none). */
export function argumentsOf(call: ToolCall): Loose {
  return isObject(call.arguments) ? call.arguments : {};
}
