import { APICallError, NoContentGeneratedError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { classifyError, parseRetryAfter, rejectsJsonMode } from './classify-error.js';

const apiError = (
  statusCode: number | undefined,
  message = 'boom',
  extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {},
) => new APICallError({ message, url: 'http://x', requestBodyValues: {}, statusCode, ...extra });
const context = { provider: 'openai:gpt-4o', now: Date.parse('2025-01-01T00:00:00Z') };

describe('parseRetryAfter', () => {
  it.each([
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'Retry-After': '3' }, 3000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, 10_000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after-ms': '-5' }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(headers, context.now)).toBe(expected);
  });
});

describe('classifyError', () => {
  it.each([
    [429, 'rate-limit', true],
    [408, 'timeout', true],
    [409, 'server', true],
    [500, 'server', true],
    [502, 'server', true],
    [529, 'server', true],
    [400, 'client', false],
    [404, 'client', false],
    [422, 'client', false],
    [401, 'auth', false],
    [403, 'auth', false],
    [200, 'bad-response', true],
  ] as const)('HTTP %s → %s (retryable %s)', (status, kind, retryable) => {
    expect(classifyError(apiError(status), context)).toMatchObject({ kind, retryable, status });
  });

  it('reads retry-after into retryAfterMs', () => {
    expect(
      classifyError(
        apiError(429, 'slow down', { responseHeaders: { 'retry-after': '2' } }),
        context,
      ).retryAfterMs,
    ).toBe(2000);
  });

  it('classifies network failures, aborts and SDK response errors', () => {
    expect(classifyError(apiError(undefined, 'Cannot connect'), context)).toMatchObject({
      kind: 'network',
      retryable: true,
    });
    expect(
      classifyError(
        Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }),
        context,
      ),
    ).toMatchObject({ kind: 'network', retryable: true });
    expect(classifyError(new NoContentGeneratedError(), context)).toMatchObject({
      kind: 'bad-response',
      retryable: true,
    });
    expect(classifyError(new DOMException('x', 'TimeoutError'), context)).toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    const controller = new AbortController();
    controller.abort();
    expect(
      classifyError(new Error('whatever'), { ...context, signal: controller.signal }),
    ).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('passes a ProviderError through and rethrows bugs', () => {
    const original = new ProviderError({
      provider: 'p',
      kind: 'client',
      retryable: false,
      message: 'm',
    });
    expect(classifyError(original, context)).toBe(original);
    expect(() => classifyError(new RangeError('our bug'), context)).toThrow(RangeError);
  });

  it('redacts keys in messages and caps their length', () => {
    const error = classifyError(
      apiError(401, `Incorrect API key provided: sk-live-1234567890abcdef ${'x'.repeat(2000)}`),
      { ...context, secrets: ['nothing-like-it'] },
    );
    expect(error.message).not.toContain('1234567890abcdef');
    expect(error.message.length).toBeLessThan(700);
    expect(JSON.stringify(error.cause, Object.getOwnPropertyNames(error.cause))).not.toContain(
      '1234567890abcdef',
    );
  });
});

describe('rejectsJsonMode', () => {
  it('is true only for a 400 naming the JSON option', () => {
    expect(rejectsJsonMode(apiError(400, "'response_format' is not supported"))).toBe(true);
    expect(
      rejectsJsonMode(
        apiError(400, 'bad', { responseBody: '{"error":"responseMimeType unsupported"}' }),
      ),
    ).toBe(true);
    expect(rejectsJsonMode(apiError(400, 'context length exceeded'))).toBe(false);
    expect(rejectsJsonMode(apiError(500, 'response_format'))).toBe(false);
    expect(rejectsJsonMode(new Error('response_format'))).toBe(false);
  });
});
