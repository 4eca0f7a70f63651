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
