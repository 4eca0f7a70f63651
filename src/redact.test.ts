import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from './redact.js';

describe('redact', () => {
  it.each([
    ['Incorrect API key provided: sk-proj-abcdefghijklmnop.', 'Incorrect API key provided: sk-***.'],
    ['invalid x-api-key: sk-ant-api03-AAAAAAAAAAAA', 'invalid x-api-key: ***'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer ***'],
    ['headers {"authorization":"Bearer tok123456"}', 'headers {"authorization":"Bearer ***"}'],
    ['{"x-api-key":"plainsecret99"}', '{"x-api-key":"***"}'],
    ['x-goog-api-key=AIzaSyA1234567890abcdefghij', 'x-goog-api-key=***'],
    ['GET https://host/v1beta/models?key=AIzaSecretValue&alt=json', 'GET https://host/v1beta/models?key=***&alt=json'],
    ['apiKey: hunter2hunter2', 'apiKey: ***'],
    ['key AIzaSyA1234567890abcdefghij leaked', 'key AIza*** leaked'],
    ['nothing secret here: 429 Too Many Requests', 'nothing secret here: 429 Too Many Requests'],
  ])('masks %s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it('masks registered and extra secrets of any shape, longest first', () => {
    registerSecret('my-local-server-token-1');
    expect(redact('token my-local-server-token-1 used')).toBe('token *** used');
    expect(redact('value opaque-value-42 here', ['opaque-value-42'])).toBe('value *** here');
  });

  it('ignores secrets too short to mask safely', () => {
    registerSecret('abc');
    registerSecret(undefined);
    expect(redact('abc abc')).toBe('abc abc');
  });
});
