/**
 * The one limiter: p-limit concurrency per provider + base URL, adaptive on 429 (halve, then recover additively),
 * with optional requests-per-minute spacing and a tokens-per-minute sliding window.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { ProviderError } from '../errors.js';
import { onAbort } from './abort.js';
import { estimateRequestTokens } from './estimate.js';
import type { Provider, ProviderRequest } from './provider.js';
import { abortableSleep } from './retry.js';

/** Time source, injectable for tests. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep: abortableSleep };

/** How much one endpoint may be asked at once and per minute. */
export interface LimiterSettings {
  /** Most requests in flight (the ceiling adaptive concurrency recovers to). */
  concurrency: number;
  /** Requests per minute, spaced evenly (60 000 / rpm ms between starts). */
  rpm?: number;
  /** Estimated tokens (input + output cap) per sliding minute. */
  tpm?: number;
  /** Lower the limit on 429 and recover after successes (default true). */
  adaptive?: boolean;
  /** Factor applied to the limit on a 429 (default 0.5, never below 1). */
  decreaseFactor?: number;
  /** Consecutive successes before the limit grows by one (default 10). */
  recoverAfter?: number;
}

const WINDOW_MS = 60_000;

/** What one endpoint's limiter has seen, for the manifest and the end-of-run summary. */
export interface LimiterStats {
  /** Requests started (each HTTP attempt that got a slot). */
  requests: number;
  ok: number;
  /** Answered 429 (rate limited). */
  rate_limited: number;
  /** Failed any other way (server errors, resets, timeouts, …; aborts are not counted). */
  failed: number;
  /** Most requests in flight at once. */
  max_in_flight: number;
  /** The effective concurrency limit now, and the lowest it went. */
  limit: number;
  min_limit: number;
}

/** A concurrency limiter whose effective limit adapts to rate limiting. */
export class AdaptiveLimiter {
  private readonly limiter: LimitFunction;
  private effective: number;
  private successes = 0;
  // Bumped on each decrease, so one wave of 429s from requests started together lowers the limit once.
  private epoch = 0;
  private nextStartAt = 0;
  private readonly window: Array<{ at: number; tokens: number }> = [];
  private readonly counts = {
    requests: 0,
    ok: 0,
    rate_limited: 0,
    failed: 0,
    max_in_flight: 0,
    min_limit: 0,
  };

  constructor(
    readonly settings: LimiterSettings,
    private readonly clock: Clock = systemClock,
  ) {
    if (!(settings.concurrency >= 1))
      throw new RangeError(`concurrency must be at least 1 (got ${settings.concurrency})`);
    this.effective = Math.floor(settings.concurrency);
    this.counts.min_limit = this.effective;
    this.limiter = pLimit(this.effective);
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.limiter.pendingCount;
  }

  /** Counts since the limiter was made. */
  stats(): LimiterStats {
    return { ...this.counts, limit: this.effective };
  }

  /** The current effective concurrency limit. */
  get limit(): number {
    return this.effective;
  }

  /** Tasks running now. */
  get active(): number {
    return this.limiter.activeCount;
  }

  /** Whether `run` needs a token estimate (only when a tokens-per-minute cap is set). */
  get countsTokens(): boolean {
    return this.settings.tpm !== undefined;
  }

  /** Runs `task` when a slot and the rate caps allow; rejects at once if `signal` aborts while waiting. */
  run<T>(
    task: () => Promise<T>,
    options: { tokens?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const { signal } = options;
    const queued = this.limiter(async () => {
      signal?.throwIfAborted();
      await this.waitForRate(options.tokens ?? 0, signal);
      const startedIn = this.epoch;
      this.counts.requests += 1;
      this.counts.max_in_flight = Math.max(this.counts.max_in_flight, this.limiter.activeCount);
      try {
        const result = await task();
        this.counts.ok += 1;
        this.recordSuccess();
        return result;
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'rate-limit') {
          this.counts.rate_limited += 1;
          this.recordRateLimit(startedIn);
        } else if (
          !(error instanceof ProviderError && error.kind === 'aborted') &&
          (error as Error)?.name !== 'AbortError'
        )
          this.counts.failed += 1;
        throw error;
      }
    });
    if (!signal) return queued;
    queued.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const detach = onAbort(signal, () => reject(signal.reason));
      queued.then(resolve, reject).finally(detach);
    });
  }

  private recordSuccess(): void {
    if (this.settings.adaptive === false || this.effective >= this.settings.concurrency) return;
    this.successes++;
    if (this.successes >= (this.settings.recoverAfter ?? 10)) this.setLimit(this.effective + 1);
  }

  private recordRateLimit(startedIn: number): void {
    if (this.settings.adaptive === false || startedIn !== this.epoch) return;
    this.epoch++;
    this.setLimit(Math.max(1, Math.floor(this.effective * (this.settings.decreaseFactor ?? 0.5))));
  }

  private setLimit(limit: number): void {
    this.successes = 0;
    this.effective = Math.min(limit, Math.floor(this.settings.concurrency));
    this.counts.min_limit = Math.min(this.counts.min_limit, this.effective);
    this.limiter.concurrency = this.effective;
  }

  private async waitForRate(tokens: number, signal?: AbortSignal): Promise<void> {
    const { rpm, tpm } = this.settings;
    if (rpm) {
      // Reserve the next start time before sleeping, so concurrent waiters queue up behind each other.
      const now = this.clock.now();
      const startAt = Math.max(now, this.nextStartAt);
      this.nextStartAt = startAt + WINDOW_MS / rpm;
      if (startAt > now) await this.clock.sleep(startAt - now, signal);
    }
    if (!tpm) return;
    for (;;) {
      const now = this.clock.now();
      while (this.window.length > 0 && (this.window[0]?.at ?? 0) <= now - WINDOW_MS)
        this.window.shift();
      const used = this.window.reduce((sum, entry) => sum + entry.tokens, 0);
      // A request larger than the whole cap still goes, alone, so it cannot wait forever.
      if (this.window.length === 0 || used + tokens <= tpm) {
        this.window.push({ at: now, tokens });
        return;
      }
      await this.clock.sleep(Math.max(1, (this.window[0]?.at ?? now) + WINDOW_MS - now), signal);
    }
  }
}

/**
 * One limiter per key (provider + base URL), shared by every stack built with the same pool; the
 * first settings win.
 */
export class LimiterPool {
  private readonly limiters = new Map<string, AdaptiveLimiter>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** Every endpoint's counts, by pool key (`provider base-url`), in the order they were first used. */
  stats(): { endpoint: string; stats: LimiterStats }[] {
    return [...this.limiters].map(([endpoint, limiter]) => ({ endpoint, stats: limiter.stats() }));
  }

  get(key: string, settings: LimiterSettings): AdaptiveLimiter {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new AdaptiveLimiter(settings, this.clock);
      this.limiters.set(key, limiter);
    }
    return limiter;
  }
}

/** The pool key: the provider id and the base URL it is called at. */
export function limiterKey(provider: string, baseUrl: string): string {
  return `${provider} ${baseUrl.replace(/\/+$/, '')}`;
}

/** How `withLimit` limits: the shared limiter for this provider + base URL. */
export interface LimitPolicy {
  limiter: AdaptiveLimiter;
  /** Token estimate for the tokens-per-minute cap (default: `estimateRequestTokens`). */
  countTokens?: (request: ProviderRequest) => number;
}

/** Wraps a provider so its calls go through the limiter. */
export function withLimit(provider: Provider, policy: LimitPolicy): Provider {
  const countTokens =
    policy.countTokens ?? ((request: ProviderRequest) => estimateRequestTokens(request).total);
  return {
    id: provider.id,
    generate(request, signal) {
      const tokens = policy.limiter.countsTokens ? countTokens(request) : 0;
      return policy.limiter
        .run(() => provider.generate(request, signal), { tokens, signal })
        .catch((error: unknown) => {
          if (signal?.aborted && !(error instanceof ProviderError)) {
            throw new ProviderError({
              provider: provider.id,
              kind: 'aborted',
              retryable: false,
              message: `${provider.id}: request aborted while waiting for a slot`,
              cause: error,
            });
          }
          throw error;
        });
    },
  };
}
