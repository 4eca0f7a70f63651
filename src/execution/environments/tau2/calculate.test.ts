/**
 * tau2's `calculate` against CPython 3.11: every expected string below is what
 * `str(round(float(eval(expression, {"__builtins__": None}, {})), 2))` printed (or its exception, as
 * tau2 reports it) for the expression, with tau2's character check in front.
 */
import { describe, expect, it } from 'vitest';
import { calculate } from './calculate.js';
import { ToolError } from './python.js';

const PYTHON: [string, string][] = [
  ['2+2', '4.0'],
  ['7/2', '3.5'],
  ['7//2', '3.0'],
  ['2**10', '1024.0'],
  ['2**-1', '0.5'],
  ['-2**2', '-4.0'],
  ['1/0', 'Error: division by zero'],
  ['1.0/0', 'Error: float division by zero'],
  ['1//0', 'Error: integer division or modulo by zero'],
  ['1.0//0', 'Error: float floor division by zero'],
  ['0**-1', 'Error: 0.0 cannot be raised to a negative power'],
  ['(-8)**0.5', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['()', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['(1)(2)', "Error: 'int' object is not callable"],
  ['2 3', 'Error: invalid syntax (<string>, line 1)'],
  ['(2', "Error: '(' was never closed (<string>, line 1)"],
  ['2)', "Error: unmatched ')' (<string>, line 1)"],
  [')', "Error: unmatched ')' (<string>, line 1)"],
  ['', 'Error: invalid syntax (<string>, line 0)'],
  ['2 +', 'Error: invalid syntax (<string>, line 1)'],
  [
    '0123',
    'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)',
  ],
  ['00', '0.0'],
  ['1.2.3', 'Error: invalid syntax (<string>, line 1)'],
  ['.5+5.', '5.5'],
  ['10**400', 'Error: int too large to convert to float'],
  ['10**400/10**399', '10.0'],
  ['123456789*987654321', '1.2193263111263526e+17'],
  ['1e5', 'Error: Invalid characters in expression'],
  ['2*(3+4)/7', '2.0'],
  ['1.005*1000', '1005.0'],
  ['100/3', '33.33'],
  ['-0.001', '-0.0'],
  ['5 - - 3', '8.0'],
  ['+-+3', '-3.0'],
  ['2**3**2', '512.0'],
  ['(((1)))', '1.0'],
  ['1/3*3', '1.0'],
  ['0.1+0.2', '0.3'],
  ['2.675*1', '2.67'],
  ['9**0.5', '3.0'],
  ['3 // 0.5', '6.0'],
  ['1e308*10', 'Error: Invalid characters in expression'],
  ['10.0**400', "Error: (34, 'Numerical result out of range')"],
  ['4/ 2', '2.0'],
  ['7 *', 'Error: invalid syntax (<string>, line 1)'],
  ['* 7', 'Error: invalid syntax (<string>, line 1)'],
  ['((1)', "Error: '(' was never closed (<string>, line 1)"],
  ['1 ()', "Error: 'int' object is not callable"],
];

function run(expression: unknown): string {
  try {
    return calculate(expression);
  } catch (error) {
    if (error instanceof ToolError) return `Error: ${error.message}`;
    throw error;
  }
}

describe('calculate', () => {
  it.each(PYTHON)('%j gives %j, as Python does', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('reports non-string expressions as Python iterating them would', () => {
    expect(run(5)).toBe("Error: 'int' object is not iterable");
    expect(run(null)).toBe("Error: 'NoneType' object is not iterable");
    expect(run(['1', '+'])).toBe('Error: eval() arg 1 must be a string, bytes or code object');
    expect(run(['x'])).toBe('Error: Invalid characters in expression');
    expect(run([1])).toBe("Error: 'in <string>' requires string as left operand, not int");
  });
});

describe('calculate: Python float semantics for big integers, bounded size and time', () => {
  it.each([
    ['10**400/10**100', '1e+300'],
    ['-10**400/10**100', '-1e+300'],
    ['10**400/10**390', '10000000000.0'],
    ['(2**1100+1)/2**1000', '1.2676506002282294e+30'],
    ['10**400/3', 'Error: integer division result too large for a float'],
    ['1/10**400', '0.0'],
  ])('%j gives %j, as Python does', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('refuses a 30 KB expression, nesting past 200 and a runaway integer, each quickly', () => {
    const started = performance.now();
    expect(run('1+'.repeat(15_000) + '1')).toBe(
      'Error: expression too long (over 4096 characters)',
    );
    expect(run('('.repeat(201) + '1' + ')'.repeat(201))).toBe(
      'Error: too many nested parentheses (<string>, line 1)',
    );
    expect(run('('.repeat(200) + '1' + ')'.repeat(200))).toBe('1.0');
    expect(run('9**9**9')).toBe('Error: int too large to convert to float');
    expect(run('(10**4000)*(10**4000)*(10**4000)*(10**4000)*(10**4000)*(10**4000)')).toBe(
      'Error: int too large to convert to float',
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
