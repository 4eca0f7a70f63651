/** The end-of-run lines about the endpoints: requests, 429s, failures, concurrency limits, times set aside. */
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
