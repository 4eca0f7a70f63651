/**
 * tau2's `calculate` tool: `str(round(float(eval(expression)), 2))` over the characters
 * `0123456789+-*\/(). `, evaluated here by a small parser with Python's arithmetic (exact integers,
 * true and floor division, `**` binding tighter than unary minus, Python's error messages, as
 * CPython 3.11 words them) instead of an `eval`. Bounded as Python is not: an expression over
 * 4,096 characters, nesting past Python's 200 parentheses, or an integer past 65,536 bits is an
 * error (a 30 KB expression once held the process 18.7 s).
 */
import { pyFloatRepr, pyRound, pyTypeName, ToolError } from './python.js';

type Value = { kind: 'int'; value: bigint } | { kind: 'float'; value: number } | { kind: 'tuple' };

const ALLOWED = /^[0-9+\-*/(). ]*$/;
const syntax = (message = 'invalid syntax') => new ToolError(`${message} (<string>, line 1)`);

function toFloat(value: Value): number {
  if (value.kind === 'tuple')
    throw new ToolError("float() argument must be a string or a real number, not 'tuple'");
  if (value.kind === 'float') return value.value;
  const number = Number(value.value);
  if (!Number.isFinite(number)) throw new ToolError('int too large to convert to float');
  return number;
}

/** Longest expression, deepest parentheses (Python's own limit) and widest integer evaluated. */
const MAX_EXPRESSION = 4096;
const MAX_NESTING = 200;
const MAX_INT_BITS = 65_536n;

const bitLength = (value: bigint): bigint =>
  BigInt((value < 0n ? -value : value).toString(2).length);

/** An integer result, refused past MAX_INT_BITS (bounded time: each further operation would grow it). */
function int(value: bigint): Value {
  if (bitLength(value) > MAX_INT_BITS) throw new ToolError('int too large to convert to float');
  return { kind: 'int', value };
}

/**
 * int / int as Python computes it: the exact quotient, rounded once to a double (`10**400/10**100`
 * is `1e+300`, not `inf`); too large for a double is Python's OverflowError.
 */
function trueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new ToolError('division by zero');
  if (a === 0n) return b < 0n ? -0 : 0;
  const negative = a < 0n !== b < 0n;
  const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  // A quotient of at least 64 bits, plus a sticky bit for any remainder, rounds correctly to 53.
  const shift = bitLength(x) - bitLength(y) - 66n;
  const [num, den] = shift > 0n ? [x, y << shift] : [x << -shift, y];
  let quotient = num / den;
  if (num % den !== 0n) quotient |= 1n;
  const half = Number(shift) / 2;
  const result = Number(quotient) * 2 ** Math.trunc(half) * 2 ** (Number(shift) - Math.trunc(half));
  if (!Number.isFinite(result))
    throw new ToolError('integer division result too large for a float');
  return negative ? -result : result;
}

function floorBig(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient;
}

function power(base: Value, exponent: Value): Value {
  if (base.kind === 'int' && exponent.kind === 'int' && exponent.value >= 0n) {
    const magnitude = base.value < 0n ? -base.value : base.value;
    if (magnitude > 1n && Number(exponent.value) * Math.log2(Number(magnitude)) > 4096)
      throw new ToolError('int too large to convert to float');
    return int(base.value ** exponent.value);
  }
  const x = toFloat(base);
  const y = toFloat(exponent);
  if (x === 0 && y < 0) throw new ToolError('0.0 cannot be raised to a negative power');
  if (x < 0 && !Number.isInteger(y))
    throw new ToolError("float() argument must be a string or a real number, not 'complex'");
  const result = x ** y;
  if (!Number.isFinite(result)) throw new ToolError("(34, 'Numerical result out of range')");
  return { kind: 'float', value: result };
}

function arithmetic(operator: string, left: Value, right: Value): Value {
  if (left.kind === 'tuple' || right.kind === 'tuple')
    throw new ToolError(
      `unsupported operand type(s) for ${operator}: '${left.kind}' and '${right.kind}'`,
    );
  if (operator === '**') return power(left, right);
  if (left.kind === 'int' && right.kind === 'int') {
    const [a, b] = [left.value, right.value];
    if (operator === '+') return int(a + b);
    if (operator === '-') return int(a - b);
    if (operator === '*') {
      if (bitLength(a) + bitLength(b) > MAX_INT_BITS + 1n)
        throw new ToolError('int too large to convert to float');
      return int(a * b);
    }
    if (operator === '/') return { kind: 'float', value: trueDivide(a, b) };
    if (b === 0n) throw new ToolError('integer division or modulo by zero');
    return { kind: 'int', value: floorBig(a, b) };
  }
  const [a, b] = [toFloat(left), toFloat(right)];
  if (operator === '+') return { kind: 'float', value: a + b };
  if (operator === '-') return { kind: 'float', value: a - b };
  if (operator === '*') return { kind: 'float', value: a * b };
  if (b === 0)
    throw new ToolError(
      operator === '/' ? 'float division by zero' : 'float floor division by zero',
    );
  return { kind: 'float', value: operator === '/' ? a / b : Math.floor(a / b) };
}

function tokenize(expression: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*(?:(\d+\.\d*|\.\d+|\d+)|(\*\*|\/\/|[+\-*/()]))/y;
  const rest = /\s*$/y;
  let index = 0;
  let depth = 0;
  while (index < expression.length) {
    rest.lastIndex = index;
    if (rest.test(expression)) break;
    pattern.lastIndex = index;
    const match = pattern.exec(expression);
    if (!match) throw syntax();
    const number = match[1];
    if (number && /^0\d/.test(number) && !number.includes('.') && /[1-9]/.test(number))
      throw syntax(
        'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers',
      );
    tokens.push(match[1] ?? match[2]!);
    if (match[2] === '(' && ++depth > MAX_NESTING) throw syntax('too many nested parentheses');
    if (match[2] === ')') depth -= 1;
    index = pattern.lastIndex;
  }
  return tokens;
}

/** A parsed expression: Python compiles the whole expression before evaluating any of it. */
type Node =
  | { type: 'number'; value: Value }
  | { type: 'tuple' }
  | { type: 'unary'; operator: '+' | '-'; operand: Node }
  | { type: 'binary'; operator: string; left: Node; right: Node }
  | { type: 'call'; callee: Node; argument: Node | null };

/** A recursive-descent parser over Python's expression grammar for these operators. */
class Parser {
  private position = 0;
  constructor(private readonly tokens: string[]) {}

  private peek(): string | undefined {
    return this.tokens[this.position];
  }

  private next(): string | undefined {
    return this.tokens[this.position++];
  }

  parse(): Node {
    if (this.tokens.length === 0) throw new ToolError('invalid syntax (<string>, line 0)');
    const node = this.sum();
    if (this.peek() === ')') throw syntax("unmatched ')'");
    if (this.peek() !== undefined) throw syntax();
    return node;
  }

  private sum(): Node {
    let node = this.product();
    while (this.peek() === '+' || this.peek() === '-')
      node = { type: 'binary', operator: this.next()!, left: node, right: this.product() };
    return node;
  }

  private product(): Node {
    let node = this.unary();
    while (this.peek() === '*' || this.peek() === '/' || this.peek() === '//')
      node = { type: 'binary', operator: this.next()!, left: node, right: this.unary() };
    return node;
  }

  private unary(): Node {
    const token = this.peek();
    if (token !== '+' && token !== '-') return this.power();
    this.next();
    return { type: 'unary', operator: token, operand: this.unary() };
  }

  private power(): Node {
    const base = this.postfix();
    if (this.peek() !== '**') return base;
    this.next();
    return { type: 'binary', operator: '**', left: base, right: this.unary() };
  }

  private postfix(): Node {
    let node = this.atom();
    while (this.peek() === '(') {
      this.next();
      const argument = this.peek() === ')' ? null : this.sum();
      this.close();
      node = { type: 'call', callee: node, argument };
    }
    return node;
  }

  private close(): void {
    if (this.peek() === undefined) throw syntax("'(' was never closed");
    if (this.next() !== ')') throw syntax();
  }

  private atom(): Node {
    const token = this.next();
    if (token === '(') {
      const node: Node = this.peek() === ')' ? { type: 'tuple' } : this.sum();
      this.close();
      return node;
    }
    if (token === ')') throw syntax("unmatched ')'");
    if (token === undefined || !/^[\d.]/.test(token)) throw syntax();
    return {
      type: 'number',
      value: token.includes('.')
        ? { kind: 'float', value: Number(token) }
        : { kind: 'int', value: BigInt(token) },
    };
  }
}

function evaluate(node: Node): Value {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'tuple':
      return { kind: 'tuple' };
    case 'unary': {
      const operand = evaluate(node.operand);
      if (operand.kind === 'tuple')
        throw new ToolError(`bad operand type for unary ${node.operator}: 'tuple'`);
      if (node.operator === '+') return operand;
      return operand.kind === 'int'
        ? { kind: 'int', value: -operand.value }
        : { kind: 'float', value: -operand.value };
    }
    case 'binary':
      return arithmetic(node.operator, evaluate(node.left), evaluate(node.right));
    case 'call': {
      const callee = evaluate(node.callee);
      if (node.argument) evaluate(node.argument);
      throw new ToolError(`'${callee.kind}' object is not callable`);
    }
  }
}

/** Python's `str(float)`: like repr, but `inf`/`nan` spelt as Python prints them. */
function pyStrFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return pyFloatRepr(value);
}

const ALLOWED_TEXT = '0123456789+-*/(). ';

/** What tau2's character check and `eval` make of an expression that is not a string. */
function notAString(expression: unknown): ToolError {
  if (expression === null || typeof expression !== 'object')
    return new ToolError(`'${pyTypeName(expression)}' object is not iterable`);
  for (const item of Array.isArray(expression) ? expression : Object.keys(expression)) {
    if (typeof item !== 'string')
      return new ToolError(
        `'in <string>' requires string as left operand, not ${pyTypeName(item)}`,
      );
    if (!ALLOWED_TEXT.includes(item)) return new ToolError('Invalid characters in expression');
  }
  return new ToolError('eval() arg 1 must be a string, bytes or code object');
}

/** Evaluates an expression as tau2's `calculate` does; throws ToolError with Python's message. */
export function calculate(expression: unknown): string {
  if (typeof expression !== 'string') throw notAString(expression);
  if (!ALLOWED.test(expression)) throw new ToolError('Invalid characters in expression');
  if (expression.length > MAX_EXPRESSION)
    throw new ToolError(`expression too long (over ${MAX_EXPRESSION} characters)`);
  const tokens = tokenize(expression);
  return pyStrFloat(pyRound(toFloat(evaluate(new Parser(tokens).parse())), 2));
}
