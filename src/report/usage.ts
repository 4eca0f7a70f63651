/**
 * "Usage and cost": per (model, judge), the calls, tokens and cost of every role (planner, judge,
 * critic, …) as the run manifests recorded them, cost per correct case, latency p50 / p95 per role,
 * cache hits and retries from the lines; and per endpoint the requests and 429s the engine counted.
 * Pure. Percentiles are nearest-rank over the calls that reached an endpoint (cache hits excluded).
 */
import type { CallRecord, ResultRow } from '../metrics/result-row.js';
import type { Manifest, UsageTotals } from '../pipeline/manifest.js';
import type { EndpointStats } from '../providers/endpoints.js';

/** One role's calls, tokens and cost. `cost_usd` is null when a model of the role has no price. */
export interface RoleUsage {
  role: string;
  calls: number;
  cached_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** Nearest-rank percentiles of call latency (ms) over `n` calls. */
export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  n: number;
}

/** The usage row of one (model, judge). */
export interface UsageRow {
  model: string;
  judge: string;
  /** `manifest`: tokens and cost as the runs recorded them; `lines`: tokens summed from the lines, cost unknown. */
  source: 'manifest' | 'lines';
  roles: RoleUsage[];
  /** Sum over roles; null when any role's cost is unknown. */
  cost_usd: number | null;
  correct: number;
  /** cost_usd / correct; null when either is unknown or nothing is correct. */
  cost_per_correct_usd: number | null;
  latency: { planner: LatencySummary; judge: LatencySummary };
  /** Calls answered from the response cache, every role. */
  cache_hits: number;
  /** HTTP attempts beyond the first (retries of retryable failures), planner and judge. */
  retries: number;
  /** Requests answered 429 at the endpoints the runs' manifests record (shared by the models of one command); null without a record. */
  rate_limited: number | null;
}

/** The section: one row per (model, judge), the endpoints the runs called, and the price table's date. */
export interface UsageSection {
  rows: UsageRow[];
  endpoints: EndpointStats[];
  pricesAsOf: string | null;
}

/** Nearest-rank percentile `q` (0–1) of the numbers (sorted here); null for none. */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function latencyOf(calls: readonly (CallRecord | null | undefined)[]): LatencySummary {
  const values = calls.flatMap((call) =>
    call && !call.cached && call.latencyMs !== null ? [call.latencyMs] : [],
  );
  return { p50: percentile(values, 0.5), p95: percentile(values, 0.95), n: values.length };
}

function addTotals(into: RoleUsage, totals: UsageTotals): void {
  into.calls += totals.calls;
  into.cached_calls += totals.cached_calls;
  into.input_tokens += totals.input_tokens;
  into.output_tokens += totals.output_tokens;
  into.cost_usd =
    into.cost_usd === null || totals.cost_usd === null ? null : into.cost_usd + totals.cost_usd;
}

const emptyRole = (role: string): RoleUsage => ({
  role,
  calls: 0,
  cached_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
});

/** Roles as the manifests recorded them, summed over the group's runs (every role a manifest has, in first-seen order). */
function manifestRoles(manifests: readonly Manifest[]): RoleUsage[] {
  const roles = new Map<string, RoleUsage>();
  for (const manifest of manifests) {
    for (const [role, totals] of Object.entries(manifest.usage ?? {})) {
      if (!totals || typeof totals !== 'object') continue;
      if (!roles.has(role)) roles.set(role, emptyRole(role));
      addTotals(roles.get(role)!, totals as UsageTotals);
    }
  }
  return [...roles.values()];
}

/** Without a manifest: tokens summed from the lines, cost unknown. */
function lineRoles(rows: readonly ResultRow[]): RoleUsage[] {
  return (['planner', 'judge'] as const).map((role) => {
    const usage = emptyRole(role);
    usage.cost_usd = null;
    for (const row of rows) {
      const call = row.calls?.[role];
      if (!row.usage[role] && !call) continue;
      usage.calls += 1;
      if (call?.cached) usage.cached_calls += 1;
      usage.input_tokens += row.usage[role]?.inputTokens ?? 0;
      usage.output_tokens += row.usage[role]?.outputTokens ?? 0;
    }
    return usage;
  });
}

/** One (model, judge)'s usage row; `manifests` are those of the runs holding only this group's model. */
export function usageRow(
  model: string,
  judge: string,
  rows: readonly ResultRow[],
  correct: number,
  manifests: readonly Manifest[],
): UsageRow {
  const source = manifests.length > 0 ? 'manifest' : 'lines';
  const roles = source === 'manifest' ? manifestRoles(manifests) : lineRoles(rows);
  const cost = roles.some((role) => role.cost_usd === null)
    ? null
    : roles.reduce((sum, role) => sum + (role.cost_usd ?? 0), 0);
  const retries = rows.reduce(
    (sum, row) =>
      sum +
      Math.max(0, (row.calls?.planner?.attempts ?? 1) - 1) +
      Math.max(0, (row.calls?.judge?.attempts ?? 1) - 1),
    0,
  );
  return {
    model,
    judge,
    source,
    roles,
    cost_usd: cost,
    correct,
    cost_per_correct_usd: cost !== null && correct > 0 ? cost / correct : null,
    latency: {
      planner: latencyOf(rows.map((row) => row.calls?.planner)),
      judge: latencyOf(rows.map((row) => row.calls?.judge)),
    },
    cache_hits: roles.reduce((sum, role) => sum + role.cached_calls, 0),
    retries,
    rate_limited: manifests.some((manifest) => manifest.endpoints)
      ? manifests.reduce(
          (sum, manifest) =>
            sum +
            (manifest.endpoints ?? []).reduce((total, entry) => total + entry.rate_limited, 0),
          0,
        )
      : null,
  };
}

/** Endpoints of every manifest, once each (runs of one command share a pool: the fullest record of an endpoint wins). */
export function endpointsOf(manifests: readonly (Manifest | null)[]): EndpointStats[] {
  const byName = new Map<string, EndpointStats>();
  for (const manifest of manifests) {
    for (const entry of manifest?.endpoints ?? []) {
      const known = byName.get(entry.endpoint);
      if (!known || entry.requests > known.requests) byName.set(entry.endpoint, entry);
    }
  }
  return [...byName.values()];
}
