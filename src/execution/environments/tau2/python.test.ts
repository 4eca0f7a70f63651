/** The Python behaviours tau2's tools rely on, against values CPython 3.11 printed. */
import { describe, expect, it } from 'vitest';
import { integerKeyedObjects } from './key-order.js';
import { pyJsonDumps, pyJsonString } from './python-json.js';
import { pyCount, pyFloatRepr, pyRepr, pyRound, pySorted } from './python.js';
import { bindArguments } from './toolkit.js';
import { z } from 'zod';

describe('pyRound and pyFloatRepr', () => {
  it('round(x, 2) rounds exact binary ties to even and everything else correctly', () => {
    expect(
      [0.125, 0.375, 2.675, 1.005, -0.125, 2.5, 0.285, 1.015, 3.14159, 12.345].map((value) =>
        pyRound(value, 2),
      ),
    ).toEqual([0.12, 0.38, 2.67, 1, -0.12, 2.5, 0.28, 1.01, 3.14, 12.35]);
    expect(Object.is(pyRound(-0.001, 2), -0)).toBe(true);
  });
  it('repr(float) as Python prints it', () => {
    expect(
      [128, 0.1, 1e16, 1e-5, 1.5e-7, 123456789.123, -2.5, 1e22, 0.0001, -0].map(pyFloatRepr),
    ).toEqual([
      '128.0',
      '0.1',
      '1e+16',
      '1e-05',
      '1.5e-07',
      '123456789.123',
      '-2.5',
      '1e+22',
      '0.0001',
      '-0.0',
    ]);
  });
});

describe('pyJsonDumps', () => {
  it('prints floats of float fields with a decimal point, ints as ints, non-ASCII escaped, with Python separators', () => {
    const schema = z.object({
      amount: z.number(),
      count: z.int(),
      name: z.string(),
      tags: z.array(z.string()),
    });
    expect(pyJsonDumps({ amount: 128, count: 2, name: 'Zoë "Z"', tags: ['a'] }, schema)).toBe(
      '{"amount": 128.0, "count": 2, "name": "Zo\\u00eb \\"Z\\"", "tags": ["a"]}',
    );
    expect(pyJsonDumps({ b: 1, a: [1.5, null] }, undefined, true)).toBe(
      '{"a": [1.5, null], "b": 1}',
    );
    expect(pyJsonString('😀\u007f')).toBe('"\\ud83d\\ude00\\u007f"');
  });
});

describe('Python argument binding and builtins', () => {
  it('words TypeErrors as CPython does', () => {
    const bind = (args: unknown) => {
      try {
        bindArguments('RetailTools.f', ['a', 'b', 'c'], args);
        return 'ok';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(bind({ a: 1 })).toBe(
      "RetailTools.f() missing 2 required positional arguments: 'b' and 'c'",
    );
    expect(bind({})).toBe(
      "RetailTools.f() missing 3 required positional arguments: 'a', 'b', and 'c'",
    );
    expect(bind({ a: 1, z: 1 })).toBe("RetailTools.f() got an unexpected keyword argument 'z'");
    expect(bind([1])).toBe('RetailTools.f() argument after ** must be a mapping, not list');
    expect(bind({ a: 1, b: 2, c: 3 })).toBe('ok');
  });
  it('counts, sorts and reprs like Python', () => {
    expect(pyCount(['a', 'b', 'a'], 'a')).toBe(2);
    expect(pyCount('aaaa', 'aa')).toBe(2);
    expect(pySorted(['b', 'a', 'C'])).toEqual(['C', 'a', 'b']);
    expect(() => pySorted(['a', 1])).toThrow(
      "'<' not supported between instances of 'int' and 'str'",
    );
    expect(pyRepr({ a: [1, "it's", null, true] })).toBe(`{'a': [1, "it's", None, True]}`);
  });
});

describe('integerKeyedObjects', () => {
  it('finds the file order of objects whose keys JavaScript would reorder', () => {
    const text = '{"p": {"9": {"x": [1, {"20": 1, "3": 2}]}, "10": {}}, "q": {"a": 1}}';
    expect(integerKeyedObjects(text)).toEqual([
      { path: ['p', '9', 'x', 1], keys: ['20', '3'] },
      { path: ['p'], keys: ['9', '10'] },
    ]);
  });
});
