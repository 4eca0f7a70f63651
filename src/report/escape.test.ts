import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript } from './escape.js';

const HOSTILE = '</script><img src=x onerror=alert(1)>';

describe('escapeHtml', () => {
  it.each([
    ['<b>&"\'', '&lt;b&gt;&amp;&quot;&#39;'],
    [HOSTILE, '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ['plain', 'plain'],
    [null, ''],
    [42, '42'],
  ])('escapes %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });
});

describe('jsonForScript', () => {
  it('cannot close a script element or open a comment, and parses back to the same value', () => {
    const value = {
      answer: HOSTILE,
      comment: '<!-- x -->',
      amp: 'a&b',
      separators: 'a\u2028b\u2029c',
    };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
