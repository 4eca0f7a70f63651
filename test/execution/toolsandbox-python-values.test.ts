// Python's float formatting and repr, as ToolSandbox's texts and extractors rely on them
// (expected values printed by CPython 3.11).
import { describe, expect, it } from 'vitest';
import { pyRepr } from '../../src/execution/environments/toolsandbox/python-repr.js';
import {
  PyFloat,
  pyFixed,
  pyFloatRepr,
  pyFormat,
} from '../../src/execution/environments/toolsandbox/python-values.js';

const CASES: [number, string, string[]][] = [
  [0.5, '0.5', ['0', '0.5', '0.50', '0.500']],
  [1.5, '1.5', ['2', '1.5', '1.50', '1.500']],
  [2.5, '2.5', ['2', '2.5', '2.50', '2.500']],
  [0.125, '0.125', ['0', '0.1', '0.12', '0.125']],
  [0.375, '0.375', ['0', '0.4', '0.38', '0.375']],
  [2.675, '2.675', ['3', '2.7', '2.67', '2.675']],
  [
    1e16,
    '1e+16',
    ['10000000000000000', '10000000000000000.0', '10000000000000000.00', '10000000000000000.000'],
  ],
  [1.0, '1.0', ['1', '1.0', '1.00', '1.000']],
  [0.1, '0.1', ['0', '0.1', '0.10', '0.100']],
  [-0.0, '-0.0', ['-0', '-0.0', '-0.00', '-0.000']],
  [123456789.123, '123456789.123', ['123456789', '123456789.1', '123456789.12', '123456789.123']],
  [1e-7, '1e-07', ['0', '0.0', '0.00', '0.000']],
  [3.14159, '3.14159', ['3', '3.1', '3.14', '3.142']],
  [-2.5, '-2.5', ['-2', '-2.5', '-2.50', '-2.500']],
  [
    1e22,
    '1e+22',
    [
      '10000000000000000000000',
      '10000000000000000000000.0',
      '10000000000000000000000.00',
      '10000000000000000000000.000',
    ],
  ],
  [72.5, '72.5', ['72', '72.5', '72.50', '72.500']],
];

describe('Python float texts', () => {
  it.each(CASES)('%s: repr and .0f-.3f', (x, repr, fixed) => {
    expect(pyFloatRepr(x)).toBe(repr);
    expect([0, 1, 2, 3].map((d) => pyFixed(x, d))).toEqual(fixed);
  });
  it('repr of a dict, and str.format with a float', () => {
    expect(pyRepr({ a: "it's", b: [true, null, new PyFloat(1), 2], c: 'x\ny' })).toBe(
      `{'a': "it's", 'b': [True, None, 1.0, 2], 'c': 'x\\ny'}`,
    );
    expect(pyFormat('at {t} or {{t}}', { t: new PyFloat(1725278400) })).toBe(
      'at 1725278400.0 or {t}',
    );
  });
});
