import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from './redact.js';

describe('redact', () => {
  it.each([
    [
      'Incorrect API key provided: sk-proj-abcdefghijklmnop.',
      'Incorrect API key provided: sk-***.',
    ],
    ['invalid x-api-key: sk-ant-api03-AAAAAAAAAAAA', 'invalid x-api-key: ***'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer ***'],
    ['headers {"authorization":"Bearer tok123456"}', 'headers {"authorization":"Bearer ***"}'],
    ['{"x-api-key":"plainsecret99"}', '{"x-api-key":"***"}'],
    ['x-goog-api-key=AIzaSyA1234567890abcdefghij', 'x-goog-api-key=***'],
    [
      'GET https://host/v1beta/models?key=AIzaSecretValue&alt=json',
      'GET https://host/v1beta/models?key=***&alt=json',
    ],
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

  it('masks a registered key in its base64 (any alignment, standard and URL-safe) and URL-encoded forms', () => {
    const key = 'sk-proj-AbC+/9xyz_0123456789SECRET';
    registerSecret(key);
    for (const prefix of ['', 'u:', 'ab:', 'user:']) {
      const echoed = Buffer.from(`${prefix}${key}!tail`).toString('base64');
      expect(redact(`401: bad credentials ${echoed}`)).not.toContain(echoed.slice(8, 30));
      const urlSafe = echoed.replace(/\+/g, '-').replace(/\//g, '_');
      expect(redact(`token=${urlSafe}`)).not.toContain(urlSafe.slice(8, 30));
    }
    expect(redact(`GET /v1?k=${encodeURIComponent(key)}`)).not.toContain(encodeURIComponent(key));
    expect(redact(`GET /v1?k=${encodeURIComponent(key).toLowerCase()}`)).not.toContain(
      'AbC%2b%2f9xyz',
    );
    expect(redact('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic ***');
  });
});
