/**
 * One run's model plumbing: a shared limiter pool (planner and judge on one endpoint share its
 * limit) and one response cache, from which every provider stack of the run is built.
 */
import path from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Budget } from '../pipeline/budget.js';
import { endpointStats, HealthPool, type EndpointStats } from '../providers/endpoints.js';
import type { Batcher } from '../providers/batch/batcher.js';
import { LimiterPool } from '../providers/limit.js';
import { ResponseCache } from '../providers/cache.js';
import type { Provider } from '../providers/provider.js';
import { buildProviderStack } from '../providers/registry.js';
import type { RetryPolicy } from '../providers/retry.js';
import type { ModelDefaults } from '../providers/model-options.js';

/** The engine knobs of a run (from `RunSpec`). */
export interface EngineOptions {
  concurrency: number;
  rpm?: number;
  tpm?: number;
  timeoutMs: number;
  maxRetries: number;
  /** `--no-cache` sets false: the cache is then neither read nor written. */
  cache: boolean;
  /** Folder of the response cache (default `.apb-cache` in the working directory, or $APB_CACHE_DIR). */
  cacheDir: string;
  /** `--max-cost`: every stack gets this budget's gate (a model without a price is refused here, before any call). */
  budget?: Budget;
  /** `--batch`: openai, anthropic and google calls go through this run directory's batches. */
  batch?: Batcher;
  /** Told before each retry of a retryable failure (the exec summary's and progress line's retry count). */
  onRetry?: RetryPolicy['onRetry'];
  /** False for a long-lived server: no loud-failure watch (it would latch after early failures). */
  failureWatch?: boolean;
  /** Told of a warning (the response cache could not be opened as asked); default: stderr. */
  warn?: (message: string) => void;
  /** The size caps every stack enforces (replies, images, JSON nesting); default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** Per-model settings that override the run's (from a config file's model entry). */
export type StackOverrides = Partial<
  Pick<EngineOptions, 'concurrency' | 'rpm' | 'tpm' | 'timeoutMs' | 'maxRetries'>
>;

export interface RunProviders {
  /**
   * A decorated provider for a `PROVIDER:MODEL` spec and its base URL (several URLs: several endpoints, balanced);
   * every model of the run shares one limiter pool; `cache: false` keeps this stack off the response cache, and
   * the overrides are one model's own engine settings.
   */
  provider(
    spec: string,
    baseUrl: string | readonly string[] | null,
    options?: StackOverrides & {
      cache?: boolean;
      modelDefaults?: ModelDefaults;
      failureWatch?: boolean;
    },
  ): Provider;
  /** The size caps the run's stacks enforce (and its readers of replies use). */
  readonly limits: Limits;
  /** What every endpoint of the run has seen so far (requests, 429s, failures, limits, times set aside). */
  endpointStats(): EndpointStats[];
  /** Retries made so far and 429 answers received, over every stack of the run (for the progress line). */
  traffic(): { retries: number; rateLimited: number };
  close(): void;
}

/** The default cache folder: $APB_CACHE_DIR, else `.apb-cache` in the working directory. */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.APB_CACHE_DIR || '.apb-cache');
}

const stderrLine = (message: string) => void process.stderr.write(`${message}\n`);

export function createRunProviders(options: EngineOptions): RunProviders {
  const limiters = new LimiterPool();
  const health = new HealthPool();
  let cache: ResponseCache | null = null;
  let retries = 0;
  const retry = { onRetry: () => void (retries += 1) };
  return {
    limits: options.limits ?? DEFAULT_LIMITS,
    provider(spec, baseUrl, stack = {}) {
      const gate = options.budget?.gateFor(spec);
      const cached = options.cache && stack.cache !== false;
      // Opened on first use, so baseline and rules runs never create a cache file.
      if (cached && !cache)
        cache = ResponseCache.open(path.join(options.cacheDir, 'responses.sqlite'), (message) =>
          (options.warn ?? stderrLine)(`warning: ${message}`),
        );
      const rpm = stack.rpm ?? options.rpm;
      const tpm = stack.tpm ?? options.tpm;
      return buildProviderStack(spec, {
        baseUrl,
        concurrency: stack.concurrency ?? options.concurrency,
        ...(rpm ? { rpm } : {}),
        ...(tpm ? { tpm } : {}),
        timeoutMs: stack.timeoutMs ?? options.timeoutMs,
        maxRetries: stack.maxRetries ?? options.maxRetries,
        cache: { cache, enabled: cached },
        limiters,
        health,
        retry,
        ...(options.batch ? { batch: options.batch } : {}),
        ...(gate ? { gate } : {}),
        ...(stack.modelDefaults ? { modelDefaults: stack.modelDefaults } : {}),
        ...(stack.failureWatch === false || options.failureWatch === false
          ? { failureWatch: false }
          : {}),
        ...(options.onRetry ? { retry: { onRetry: options.onRetry } } : {}),
        ...(options.limits ? { limits: options.limits } : {}),
      });
    },
    endpointStats: () => endpointStats(limiters, health),
    traffic: () => ({
      retries,
      rateLimited: endpointStats(limiters, health).reduce(
        (sum, entry) => sum + entry.rate_limited,
        0,
      ),
    }),
    close() {
      cache?.close();
    },
  };
}
