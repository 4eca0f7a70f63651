/** The end-of-run lines about the endpoints: requests, 429s, failures, concurrency limits, times set aside. */
import { readManifest, writeManifest } from '../pipeline/manifest.js';
import type { EndpointStats } from '../providers/endpoints.js';

const count = (value: number) => value.toLocaleString('en-US');

/** One line per endpoint, when there is something to say: several endpoints, or any 429, failure or set-aside. */
export function endpointSummaryLines(stats: readonly EndpointStats[]): string[] {
  const notable =
    stats.length > 1 ||
    stats.some((entry) => entry.rate_limited > 0 || entry.failed > 0 || entry.set_aside > 0);
  if (!notable) return [];
  return stats.map((entry) => {
    const limit =
      entry.min_limit < entry.limit
        ? `limit ${entry.limit} (lowest ${entry.min_limit})`
        : `limit ${entry.limit}`;
    const aside = entry.set_aside > 0 ? `, set aside ${entry.set_aside}×` : '';
    return `apb: endpoint ${entry.endpoint}: ${count(entry.requests)} request(s), ${count(entry.ok)} ok, ${count(entry.rate_limited)} answered 429, ${count(entry.failed)} failed, at most ${entry.max_in_flight} in flight, ${limit}${aside}`;
  });
}

/**
 * The models of one command share one pool of endpoints, and each run records the pool's counts
 * when it ends: an early finisher's record is a snapshot. Once every run has settled, each manifest
 * gets the pool's final counts, so the reports (and the leaderboard's Endpoints table) show them.
 */
export function recordFinalEndpoints(dirs: readonly string[], stats: EndpointStats[]): void {
  if (stats.length === 0) return;
  for (const dir of dirs) {
    const manifest = readManifest(dir);
    if (manifest) writeManifest(dir, { ...manifest, endpoints: stats });
  }
}
