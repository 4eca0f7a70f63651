/**
 * `PROVIDER:MODEL` → a ready Provider: the vendor adapter wrapped as model options → cache → gate →
 * retry → limit → timeout (the key and the base URLs from `vendor-access.ts`).
 */
import { STACK_DEFAULTS } from '../defaults.js';
import { UsageError } from '../errors.js';
import { createAnthropicProvider } from './anthropic.js';
import { withCache, type ResponseCache } from './cache.js';
import { BATCH_PROVIDERS, type BatchProviderId } from './batch/client.js';
import type { Batcher } from './batch/batcher.js';
import { HealthPool, withEndpoints, type Endpoint } from './endpoints.js';
import { withGate, type CallGate } from './gate.js';
import { createGoogleProvider } from './google.js';
import { LimiterPool, limiterKey, withLimit } from './limit.js';
import { withModelOptions, type ModelDefaults } from './model-options.js';
import { parseModelSpec, PROVIDERS, type ModelSpec, type ProviderId } from './model-spec.js';
import { createNodeFetch } from './node-fetch.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import { createOpenAIProvider } from './openai.js';
import type { Limits } from '../limits.js';
import type { Provider } from './provider.js';
import { withRetry, type RetryPolicy } from './retry.js';
import { withFailureWatch } from './failure-watch.js';
import type { AdapterOptions } from './sdk-adapter.js';
import { withTimeout } from './timeout.js';
import { readApiKey, resolveBaseUrls, vendorBaseUrl, withKeyHint } from './vendor-access.js';
import { withRawArguments } from './raw-arguments.js';
import { buildCodeStack } from './code/stack.js';
import { parseCodeSpec } from './code/spec.js';

/** The vendor adapters, keyed by provider id. */
export const ADAPTERS = {
  openai: createOpenAIProvider,
  anthropic: createAnthropicProvider,
  google: createGoogleProvider,
  'openai-compatible': createOpenAICompatibleProvider,
} satisfies Record<ProviderId, (options: AdapterOptions) => Provider>;

/** What a stack is built with; every knob comes from the caller (RunSpec), never from the environment. */
export interface ProviderStackOptions {
  /**
   * `--base-url`; required for `openai-compatible`, otherwise the vendor's default endpoint. Several
   * URLs are several endpoints of the same model, balanced by load (`endpoints.ts`).
   */
  baseUrl?: string | readonly string[] | null;
  /** Most requests in flight per provider + base URL. */
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  /** Lower concurrency on 429 and recover after successes (default true). */
  adaptive?: boolean;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  maxRetries?: number;
  /** The run's response cache; `enabled: false` (`--no-cache`) neither reads nor writes. */
  cache?: { cache: ResponseCache | null; enabled: boolean };
  /** Share one pool across every stack of a run, so planner and judge on one endpoint share its limit. */
  limiters?: LimiterPool;
  /** Share one health record per endpoint across the run's stacks (several endpoints only). */
  health?: HealthPool;
  /** `--batch`: openai, anthropic and google calls go through the run's batcher instead of the interactive endpoint. */
  batch?: Batcher;
  modelDefaults?: ModelDefaults;
  /** Consulted before each call that is not a cache hit (the run's spending budget). */
  gate?: CallGate;
  /**
   * The loud-failure watch (failure-watch.ts) stops a batch job whose first calls all fail the
   * same way; a long-lived server (`apb serve`) turns it off, or a few early refusals would
   * refuse every later request until it is restarted, and a client's bad request is that
   * request's 400, not a dead endpoint. Default on.
   */
  failureWatch?: boolean;
  /** The size caps every layer enforces (replies, images, JSON nesting); default `DEFAULT_LIMITS`. */
  limits?: Limits;
  /** Test seams: the environment to read keys from, fetch (default: `createNodeFetch(limits)`), and retry timing. */
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  retry?: Pick<
    RetryPolicy,
    'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'sleep' | 'random' | 'onRetry'
  >;
}

/** Defaults for the knobs a caller leaves out. */
export const DEFAULT_STACK_OPTIONS = STACK_DEFAULTS;

/** Builds the decorated Provider for a spec; throws `UsageError` for a bad spec, base URL or missing key. */
export function buildProviderStack(
  specOrText: ModelSpec | string,
  options: ProviderStackOptions = {},
): Provider {
  const code = typeof specOrText === 'string' ? parseCodeSpec(specOrText) : null;
  if (code) return codeStack(code, options);
  const spec = typeof specOrText === 'string' ? parseModelSpec(specOrText) : specOrText;
  const env = options.env ?? process.env;
  const baseUrls = resolveBaseUrls(spec, options.baseUrl ?? vendorBaseUrl(spec, env)?.url);
  const apiKey = readApiKey(spec, env);
  const pool = options.limiters ?? new LimiterPool();
  const fetch = options.fetch ?? createNodeFetch(options.limits);
  // Per endpoint: adapter → timeout → its own limiter. Retries sit above, so a retry may go elsewhere.
  const endpointsOf = () =>
    baseUrls.map((baseUrl): Omit<Endpoint, 'health'> & { key: string } => {
      const adapter = vendorAdapter(spec, { apiKey, baseUrl, fetch, limits: options.limits });
      const key = limiterKey(spec.provider, baseUrl);
      const limiter = pool.get(key, {
        concurrency: options.concurrency ?? DEFAULT_STACK_OPTIONS.concurrency,
        rpm: options.rpm,
        tpm: options.tpm,
        adaptive: options.adaptive,
      });
      const timed = withTimeout(adapter, {
        timeoutMs: options.timeoutMs ?? DEFAULT_STACK_OPTIONS.timeoutMs,
      });
      return { url: baseUrl, key, limiter, provider: withLimit(timed, { limiter }) };
    });
  // Any endpoint of a fleet answers for the model: the cache scope is the whole (sorted) set.
  const scope = {
    provider: spec.provider,
    model: spec.model,
    baseUrl: [...baseUrls].sort().join(' '),
  };
  const health = options.health ?? new HealthPool();
  const called =
    options.batch && isBatchProvider(spec.provider)
      ? batched(spec, baseUrls, apiKey, scope, options)
      : watched(
          withRetry(balanced(endpointsOf(), health), {
            maxRetries: options.maxRetries ?? DEFAULT_STACK_OPTIONS.maxRetries,
            ...options.retry,
          }),
          options.failureWatch !== false,
        );
  const gated = options.gate ? withGate(called, options.gate) : called;
  const cached = withCache(gated, {
    cache: options.cache?.cache ?? null,
    enabled: options.cache?.enabled ?? false,
    scope,
    ...(options.limits ? { jsonDepth: options.limits.jsonDepth } : {}),
  });
  return withModelOptions(cached, { spec, table: options.modelDefaults });
}

/** The vendor adapter of one endpoint over `fetch`, its auth failures naming the key's variable. */
function vendorAdapter(
  spec: ModelSpec,
  at: Omit<AdapterOptions, 'model' | 'limits'> & { limits: Limits | undefined },
): Provider {
  const { limits, fetch, ...endpoint } = at;
  const adapter = ADAPTERS[spec.provider]({
    model: spec.model,
    ...endpoint,
    ...(fetch ? { fetch: withRawArguments(fetch) } : {}),
    ...(limits ? { limits } : {}),
  });
  return withKeyHint(adapter, PROVIDERS[spec.provider].keyEnv);
}

/** A planner or agent as code (`module:`, `cmd:`, `http:`) behind the same engine knobs. */
function codeStack(
  code: NonNullable<ReturnType<typeof parseCodeSpec>>,
  options: ProviderStackOptions,
): Provider {
  return buildCodeStack(code, {
    concurrency: options.concurrency ?? DEFAULT_STACK_OPTIONS.concurrency,
    ...(options.rpm ? { rpm: options.rpm } : {}),
    timeoutMs: options.timeoutMs ?? DEFAULT_STACK_OPTIONS.timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULT_STACK_OPTIONS.maxRetries,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.limiters ? { limiters: options.limiters } : {}),
    ...(options.gate ? { gate: options.gate } : {}),
    ...(options.failureWatch === false ? { failureWatch: false } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}

/** The stack with the loud-failure watch above its retries, unless the caller serves for a long time. */
const watched = (provider: Provider, watch: boolean) =>
  watch ? withFailureWatch(provider) : provider;

/** One endpoint as it is; several behind the load balancer, each with its health record. */
function balanced(
  endpoints: (Omit<Endpoint, 'health'> & { key: string })[],
  health: HealthPool,
): Provider {
  if (endpoints.length === 1) return endpoints[0]!.provider;
  return withEndpoints(
    endpoints[0]!.provider.id,
    endpoints.map((endpoint) => ({ ...endpoint, health: health.get(endpoint.key) })),
  );
}

const isBatchProvider = (provider: string): provider is BatchProviderId =>
  (BATCH_PROVIDERS as readonly string[]).includes(provider);

/** The vendors whose batch API `--batch` uses (the run core asks here, never the batch clients). */
export const BATCH_VENDORS: readonly string[] = BATCH_PROVIDERS;

/** Whether `--batch` sends this provider's calls through batches. */
export const takesBatches = (provider: string): boolean => isBatchProvider(provider);

/** The batch layer of a stack: the batcher, with the vendor adapter to capture requests and read results. */
function batched(
  spec: ModelSpec,
  baseUrls: string[],
  apiKey: string | undefined,
  scope: { provider: string; model: string; baseUrl: string },
  options: ProviderStackOptions,
): Provider {
  if (baseUrls.length > 1)
    throw new UsageError(
      `--batch sends each model's batches to one endpoint; ${spec.provider}:${spec.model} has ${baseUrls.length} base URLs`,
    );
  const baseUrl = baseUrls[0]!;
  const adapter = (fetch: typeof globalThis.fetch) =>
    vendorAdapter(spec, { apiKey, baseUrl, fetch, limits: options.limits });
  return options.batch!.provider(
    {
      id: `${spec.provider}:${spec.model}`,
      provider: spec.provider as BatchProviderId,
      model: spec.model,
      baseUrl,
      apiKey,
      scope,
    },
    adapter,
  );
}
