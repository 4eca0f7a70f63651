/**
 * The one retry helper: bounded retries of retryable ProviderErrors, honouring Retry-After,
 * abortable while waiting.
 */
import { ProviderError } from '../errors.js';
import { onAbort } from './abort.js';
import type { Provider } from './provider.js';

/** How `withRetry` retries; the defaults are the house policy (STYLE.md, "What the anchors agree on", item 4). */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  maxRetries: number;
  /** First backoff ceiling; doubles each retry (default 1 s). */
  baseDelayMs?: number;
  /** Backoff ceiling (default 30 s). */
  maxDelayMs?: number;
  /** A server's retry-after is honoured only within 0..this (default 60 s); longer values fall back to backoff. */
  maxRetryAfterMs?: number;
  /** Injectable for tests: waits `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests: uniform in [0, 1). */
  random?: () => number;
  /** Called before each wait (progress, logs). */
  onRetry?: (event: { attempt: number; error: ProviderError; delayMs: number }) => void;
}

/** Wraps a provider so retryable failures are tried again; the result's `attempts` counts every HTTP attempt. */
export function withRetry(provider: Provider, policy: RetryPolicy): Provider {
  const sleep = policy.sleep ?? abortableSleep;
  return {
    id: provider.id,
    async generate(request, signal) {
      let failures = 0;
      for (;;) {
        throwIfAborted(provider.id, signal);
        try {
          const result = await provider.generate(request, signal);
          return { ...result, attempts: failures + Math.max(1, result.attempts) };
        } catch (error) {
          if (!(error instanceof ProviderError) || !error.retryable || signal?.aborted) throw error;
          failures++;
          if (failures > policy.maxRetries) throw gaveUp(error, failures);
          const delayMs = retryDelay(failures, error, policy);
          policy.onRetry?.({ attempt: failures, error, delayMs });
          await sleep(delayMs, signal).catch(() => throwIfAborted(provider.id, signal));
        }
      }
    },
  };
}

/**
 * The wait before retry number `attempt` (1-based): the server's retry-after when within bounds,
 * else full-jitter backoff.
 */
export function retryDelay(attempt: number, error: ProviderError, policy: RetryPolicy): number {
  const maxRetryAfter = policy.maxRetryAfterMs ?? 60_000;
  if (
    error.retryAfterMs !== undefined &&
    error.retryAfterMs >= 0 &&
    error.retryAfterMs <= maxRetryAfter
  )
    return error.retryAfterMs;
  const ceiling = Math.min(
    policy.maxDelayMs ?? 30_000,
    (policy.baseDelayMs ?? 1_000) * 2 ** (attempt - 1),
  );
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/** Waits `ms`, rejecting early when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      detach?.();
      resolve();
    }, ms);
    const detach = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
  });
}

function throwIfAborted(provider: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new ProviderError({
      provider,
      kind: 'aborted',
      retryable: false,
      message: `${provider}: request aborted`,
    });
}

function gaveUp(error: ProviderError, attempts: number): ProviderError {
  return new ProviderError({
    provider: error.provider,
    kind: error.kind,
    retryable: error.retryable,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    message: `${error.message} (gave up after ${attempts} attempts)`,
    cause: error,
  });
}
