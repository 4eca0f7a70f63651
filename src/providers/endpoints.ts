/**
 * Several endpoints serving one model (`--base-url A --base-url B …`: a vLLM fleet, several Ollama
 * hosts). Each endpoint keeps its own limiter (its own adaptive concurrency and rate caps); a call
 * goes to the healthy endpoint with the fewest requests in flight or waiting, relative to its
 * current limit. An endpoint that fails several times in a row is set aside for a while, then
 * probed with one request at a time until it answers again. Retries sit above this layer, so a
 * retried call may go to another endpoint.
 */
import { ProviderError } from '../errors.js';
import {
  systemClock,
  type AdaptiveLimiter,
  type Clock,
  type LimiterPool,
  type LimiterStats,
} from './limit.js';
import type { Provider } from './provider.js';

/** When an endpoint is set aside, and for how long. */
export interface EndpointHealthPolicy {
  /** Consecutive failures that set an endpoint aside (default 3). */
  failuresToSetAside?: number;
  /** First time aside (default 30 s); it doubles each time the endpoint fails again on probation. */
  setAsideMs?: number;
  /** Longest time aside (default 5 min). */
  maxSetAsideMs?: number;
  clock?: Clock;
}

/** Failures that say something about the endpoint (not a 429, which the limiter answers; not our own request). */
const HEALTH_FAILURES: ReadonlySet<ProviderError['kind']> = new Set([
  'network',
  'server',
  'timeout',
  'bad-response',
]);

/** One endpoint's health: consecutive failures, when it may be used again, and how often it was set aside. */
export class EndpointHealth {
  private failures = 0;
  private asideUntil = 0;
  private cooldownMs: number;
  private probation = false;
  timesSetAside = 0;

  constructor(
    private readonly policy: Required<Omit<EndpointHealthPolicy, 'clock'>> & { clock: Clock },
  ) {
    this.cooldownMs = policy.setAsideMs;
  }

  /** Whether the endpoint may take requests now. */
  available(): boolean {
    return this.policy.clock.now() >= this.asideUntil;
  }

  /** When a set-aside endpoint may be used again (0 when it is not aside). */
  get until(): number {
    return this.asideUntil;
  }

  /** On probation (back from being set aside, not yet answered): one request at a time. */
  get probing(): boolean {
    return this.probation;
  }

  /**
   * Stamp for a request starting now: failures of requests started before the latest set-aside are
   * not counted again.
   */
  get epoch(): number {
    return this.timesSetAside;
  }

  recordSuccess(): void {
    this.failures = 0;
    this.probation = false;
    this.cooldownMs = this.policy.setAsideMs;
  }

  recordFailure(error: unknown, startedIn: number): void {
    if (
      !(error instanceof ProviderError) ||
      !HEALTH_FAILURES.has(error.kind) ||
      startedIn !== this.timesSetAside
    )
      return;
    this.failures += 1;
    if (this.probation || this.failures >= this.policy.failuresToSetAside) {
      if (this.probation)
        this.cooldownMs = Math.min(this.policy.maxSetAsideMs, this.cooldownMs * 2);
      this.asideUntil = this.policy.clock.now() + this.cooldownMs;
      this.probation = true;
      this.failures = 0;
      this.timesSetAside += 1;
    }
  }
}

/** One endpoint of a model: its base URL, its provider stack below the limiter, its limiter and health. */
export interface Endpoint {
  url: string;
  /** The endpoint's adapter behind its own limiter (and timeout). */
  provider: Provider;
  limiter: AdaptiveLimiter;
  health: EndpointHealth;
}

/** The default health policy, completed. */
export function healthPolicy(
  policy: EndpointHealthPolicy = {},
): ConstructorParameters<typeof EndpointHealth>[0] {
  return {
    failuresToSetAside: policy.failuresToSetAside ?? 3,
    setAsideMs: policy.setAsideMs ?? 30_000,
    maxSetAsideMs: policy.maxSetAsideMs ?? 300_000,
    clock: policy.clock ?? systemClock,
  };
}

/**
 * Load of an endpoint: requests in flight and waiting per slot of its current limit; a probing
 * endpoint takes one at a time.
 */
function load(endpoint: Endpoint): number {
  const busy = endpoint.limiter.active + endpoint.limiter.queued;
  if (endpoint.health.probing && busy >= 1) return Number.POSITIVE_INFINITY;
  return busy / endpoint.limiter.limit;
}

/**
 * Picks the endpoint for the next call: the least loaded available one (ties in turn); when all are
 * aside, the one back soonest.
 */
export function pickEndpoint(endpoints: readonly Endpoint[], turn: number): Endpoint {
  const available = endpoints.filter((endpoint) => endpoint.health.available());
  if (available.length === 0)
    return endpoints.reduce((soonest, endpoint) =>
      endpoint.health.until < soonest.health.until ? endpoint : soonest,
    );
  let best: Endpoint | null = null;
  let bestLoad = Number.POSITIVE_INFINITY;
  for (let offset = 0; offset < available.length; offset += 1) {
    const endpoint = available[(turn + offset) % available.length]!;
    const value = load(endpoint);
    if (value < bestLoad) [best, bestLoad] = [endpoint, value];
  }
  // Every available endpoint is probing and busy: queue behind the least busy limiter.
  return (
    best ??
    available.reduce((least, endpoint) =>
      endpoint.limiter.queued < least.limiter.queued ? endpoint : least,
    )
  );
}

/** One provider over several endpoints of the same model. */
export function withEndpoints(id: string, endpoints: readonly Endpoint[]): Provider {
  if (endpoints.length === 0) throw new RangeError('withEndpoints needs at least one endpoint');
  let turn = 0;
  return {
    id,
    async generate(request, signal) {
      const endpoint = pickEndpoint(endpoints, turn++);
      const startedIn = endpoint.health.epoch;
      try {
        const result = await endpoint.provider.generate(request, signal);
        endpoint.health.recordSuccess();
        return result;
      } catch (error) {
        endpoint.health.recordFailure(error, startedIn);
        throw error;
      }
    },
  };
}

/**
 * One health record per endpoint key, shared by every stack of a run (planner and judge on one
 * endpoint see the same health).
 */
export class HealthPool {
  private readonly records = new Map<string, EndpointHealth>();

  constructor(private readonly policy: EndpointHealthPolicy = {}) {}

  get(key: string): EndpointHealth {
    let health = this.records.get(key);
    if (!health) this.records.set(key, (health = new EndpointHealth(healthPolicy(this.policy))));
    return health;
  }

  /** Times the endpoint `key` was set aside (0 when it never was, or is not balanced). */
  timesSetAside(key: string): number {
    return this.records.get(key)?.timesSetAside ?? 0;
  }
}

/**
 * What a run records per endpoint (`manifest.json` → `endpoints`): the limiter's counts and the
 * times it was set aside.
 */
export type EndpointStats = LimiterStats & { endpoint: string; set_aside: number };

/** Every endpoint's counts, in the order the endpoints were first used. */
export function endpointStats(limiters: LimiterPool, health: HealthPool): EndpointStats[] {
  return limiters.stats().map(({ endpoint, stats }) => ({
    endpoint,
    ...stats,
    set_aside: health.timesSetAside(endpoint),
  }));
}
