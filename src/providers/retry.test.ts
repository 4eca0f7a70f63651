import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { FakeProvider } from './fake-provider.js';
import type { ProviderRequest } from './provider.js';
import { retryDelay, withRetry } from './retry.js';

const request: ProviderRequest = {
  messages: [],
  promptVersion: 'v',
  json: false,
  sampling: {},
  repeat: 0,
  role: 'planner',
};
const fail = (kind: ProviderError['kind'], retryable: boolean, retryAfterMs?: number) => ({
  error: new ProviderError({
    provider: 'fake:model',
    kind,
    retryable,
    message: `fake ${kind}`,
    retryAfterMs,
  }),
});

describe('withRetry', () => {
  it('retries retryable errors and counts attempts', async () => {
    const waits: number[] = [];
    const inner = new FakeProvider({
      script: [fail('server', true), fail('network', true), { text: 'ok' }],
    });
    const result = await withRetry(inner, {
      maxRetries: 3,
      sleep: async (ms) => void waits.push(ms),
      random: () => 0.5,
      baseDelayMs: 100,
    }).generate(request);
    expect(result).toMatchObject({ text: 'ok', attempts: 3 });
    expect(inner.requests).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
  });

  it('does not retry non-retryable errors', async () => {
    const inner = new FakeProvider({ script: [fail('auth', false), { text: 'never' }] });
    await expect(
      withRetry(inner, { maxRetries: 5, sleep: async () => undefined }).generate(request),
    ).rejects.toMatchObject({ kind: 'auth' });
    expect(inner.requests).toHaveLength(1);
  });

  it('does not retry errors that are not ProviderErrors (bugs)', async () => {
    const inner = new FakeProvider({
      script: [
        () => {
          throw new TypeError('bug');
        },
      ],
    });
    await expect(withRetry(inner, { maxRetries: 5 }).generate(request)).rejects.toThrow(TypeError);
  });

  it('gives up after maxRetries with the last error and the attempt count', async () => {
    const inner = new FakeProvider({ fallback: fail('server', true) });
    const error = await withRetry(inner, { maxRetries: 2, sleep: async () => undefined })
      .generate(request)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server', retryable: true });
    expect((error as Error).message).toContain('gave up after 3 attempts');
    expect(inner.requests).toHaveLength(3);
  });

  it('stops waiting when aborted', async () => {
    const inner = new FakeProvider({ fallback: fail('rate-limit', true, 30_000) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await expect(
      withRetry(inner, { maxRetries: 3 }).generate(request, controller.signal),
    ).rejects.toMatchObject({ kind: 'aborted', retryable: false });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(inner.requests).toHaveLength(1);
  });
});

describe('retryDelay', () => {
  const error = (retryAfterMs?: number) =>
    new ProviderError({
      provider: 'p',
      kind: 'rate-limit',
      retryable: true,
      message: 'm',
      retryAfterMs,
    });

  it('honours retry-after within 0..60 s', () => {
    expect(retryDelay(1, error(0), { maxRetries: 1 })).toBe(0);
    expect(retryDelay(1, error(60_000), { maxRetries: 1 })).toBe(60_000);
  });

  it('falls back to capped full-jitter exponential backoff otherwise', () => {
    const policy = { maxRetries: 9, baseDelayMs: 1000, maxDelayMs: 5000, random: () => 0.999999 };
    expect(retryDelay(1, error(120_000), policy)).toBe(999);
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, error(), policy))).toEqual([
      999, 1999, 3999, 4999, 4999,
    ]);
    expect(retryDelay(3, error(), { ...policy, random: () => 0 })).toBe(0);
  });
});
