import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { FakeProvider } from './fake-provider.js';
import { AdaptiveLimiter, LimiterPool, limiterKey, withLimit, type Clock } from './limit.js';
import type { Provider, ProviderRequest } from './provider.js';

const request: ProviderRequest = {
  messages: [],
  promptVersion: 'v',
  json: false,
  sampling: {},
  repeat: 0,
  role: 'planner',
};
const rateLimited = () =>
  new ProviderError({
    provider: 'p',
    kind: 'rate-limit',
    retryable: true,
    status: 429,
    message: '429',
  });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A provider that records how many calls overlap and fails while `failing` is true. */
function gauge(options: { delayMs: number; failing?: () => boolean }) {
  const state = { active: 0, max: 0, calls: 0 };
  const provider: Provider = {
    id: 'gauge:model',
    async generate() {
      state.calls++;
      state.active++;
      state.max = Math.max(state.max, state.active);
      await wait(options.delayMs);
      state.active--;
      if (options.failing?.()) throw rateLimited();
      return {
        text: 'ok',
        usage: null,
        latencyMs: options.delayMs,
        finishReason: 'stop',
        attempts: 1,
        cached: false,
      };
    },
  };
  return { provider, state };
}

/** Virtual time: sleeping advances the clock at once. */
function virtualClock(): Clock & { time: number } {
  const clock = {
    time: 0,
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.time += ms;
    },
  };
  return clock;
}

describe('AdaptiveLimiter', () => {
  it('never runs more than the limit at once', async () => {
    const { provider, state } = gauge({ delayMs: 15 });
    const limited = withLimit(provider, { limiter: new AdaptiveLimiter({ concurrency: 3 }) });
    await Promise.all(Array.from({ length: 20 }, () => limited.generate(request)));
    expect(state).toMatchObject({ max: 3, calls: 20, active: 0 });
  });

  it('halves the limit once per wave of 429s, never below 1, then keeps to the lower limit', async () => {
    let failing = true;
    const { provider, state } = gauge({ delayMs: 10, failing: () => failing });
    const limiter = new AdaptiveLimiter({ concurrency: 8, recoverAfter: 1000 });
    const limited = withLimit(provider, { limiter });
    await Promise.allSettled(Array.from({ length: 8 }, () => limited.generate(request)));
    expect(limiter.limit).toBe(4);
    await Promise.allSettled(Array.from({ length: 4 }, () => limited.generate(request)));
    expect(limiter.limit).toBe(2);
    for (let index = 0; index < 3; index++) await limited.generate(request).catch(() => undefined);
    expect(limiter.limit).toBe(1);
    failing = false;
    state.max = 0;
    await Promise.all(Array.from({ length: 6 }, () => limited.generate(request)));
    expect(state.max).toBe(1);
  });

  it('recovers additively after runs of successes, up to the configured ceiling', async () => {
    let failing = true;
    const { provider } = gauge({ delayMs: 1, failing: () => failing });
    const limiter = new AdaptiveLimiter({ concurrency: 4, recoverAfter: 3 });
    const limited = withLimit(provider, { limiter });
    await Promise.allSettled(Array.from({ length: 4 }, () => limited.generate(request)));
    expect(limiter.limit).toBe(2);
    failing = false;
    const limits: number[] = [];
    for (let index = 0; index < 9; index++) {
      await limited.generate(request);
      limits.push(limiter.limit);
    }
    expect(limits).toEqual([2, 2, 3, 3, 3, 4, 4, 4, 4]);
  });

  it('stays put when adaptive is off', async () => {
    const { provider } = gauge({ delayMs: 1, failing: () => true });
    const limiter = new AdaptiveLimiter({ concurrency: 4, adaptive: false });
    await Promise.allSettled(
      Array.from({ length: 4 }, () => withLimit(provider, { limiter }).generate(request)),
    );
    expect(limiter.limit).toBe(4);
  });

  it('spaces starts to honour requests per minute', async () => {
    const starts: number[] = [];
    const provider: Provider = {
      id: 'p',
      async generate() {
        starts.push(performance.now());
        return {
          text: 'ok',
          usage: null,
          latencyMs: 0,
          finishReason: 'stop',
          attempts: 1,
          cached: false,
        };
      },
    };
    const limited = withLimit(provider, {
      limiter: new AdaptiveLimiter({ concurrency: 10, rpm: 1200 }),
    });
    await Promise.all(Array.from({ length: 5 }, () => limited.generate(request)));
    // 1200 rpm = one start per 50 ms; timers may fire a little early or late, so check cumulative offsets.
    starts.forEach((start, index) =>
      expect(start - (starts[0] ?? 0)).toBeGreaterThanOrEqual(50 * index - 5),
    );
  });

  it('keeps estimated tokens per sliding minute under the cap', async () => {
    const clock = virtualClock();
    const starts: number[] = [];
    const provider: Provider = {
      id: 'p',
      async generate() {
        starts.push(clock.now());
        return {
          text: 'ok',
          usage: null,
          latencyMs: 0,
          finishReason: 'stop',
          attempts: 1,
          cached: false,
        };
      },
    };
    const limited = withLimit(provider, {
      limiter: new AdaptiveLimiter({ concurrency: 1, tpm: 1000 }, clock),
      countTokens: () => 400,
    });
    for (let index = 0; index < 5; index++) await limited.generate(request);
    expect(starts).toEqual([0, 0, 60_000, 60_000, 120_000]);
  });

  it('lets a request larger than the token cap through alone', async () => {
    const clock = virtualClock();
    const limited = withLimit(new FakeProvider({ fallback: { text: 'ok' } }), {
      limiter: new AdaptiveLimiter({ concurrency: 1, tpm: 100 }, clock),
      countTokens: () => 5000,
    });
    await limited.generate(request);
    await limited.generate(request);
    expect(clock.time).toBe(60_000);
  });

  it('rejects a queued call at once when it is aborted, without running it', async () => {
    const inner = new FakeProvider({ delayMs: 300, fallback: { text: 'ok' } });
    const limited = withLimit(inner, { limiter: new AdaptiveLimiter({ concurrency: 1 }) });
    const first = limited.generate(request);
    const controller = new AbortController();
    const second = limited.generate(request, controller.signal);
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await expect(second).rejects.toMatchObject({ kind: 'aborted', retryable: false });
    expect(performance.now() - started).toBeLessThan(200);
    await first;
    await wait(10);
    expect(inner.requests).toHaveLength(1);
  });

  it('rejects a concurrency below 1', () => {
    expect(() => new AdaptiveLimiter({ concurrency: 0 })).toThrow(RangeError);
  });
});

describe('LimiterPool', () => {
  it('shares one limiter per provider and base URL', () => {
    const pool = new LimiterPool();
    const a = pool.get(limiterKey('openai', 'https://api.openai.com/v1/'), { concurrency: 2 });
    expect(pool.get(limiterKey('openai', 'https://api.openai.com/v1'), { concurrency: 9 })).toBe(a);
    expect(pool.get(limiterKey('openai', 'http://localhost:8000/v1'), { concurrency: 2 })).not.toBe(
      a,
    );
    expect(
      pool.get(limiterKey('openai-compatible', 'https://api.openai.com/v1'), { concurrency: 2 }),
    ).not.toBe(a);
  });
});
