/** `--rank-by METRIC`: the headline a leaderboard's scorecard and chart are ranked by (default holistic CR). */
import { InvalidArgumentError } from 'commander';
import { HEADLINE_KEYS, type HeadlineKey } from '../report/scorecard.js';

/** The accepted names: the headline keys, with `-` for `_` accepted too. */
export const RANK_BY_HELP = `the headline a leaderboard is ranked by: ${HEADLINE_KEYS.join(', ')} (default holistic)`;

/** Parses a `--rank-by` value (`tool-broken` = `tool_broken`). */
export function parseRankBy(value: string): HeadlineKey {
  const key = value.trim().toLowerCase().replace(/-/g, '_');
  if ((HEADLINE_KEYS as readonly string[]).includes(key)) return key as HeadlineKey;
  throw new InvalidArgumentError(`must be one of ${HEADLINE_KEYS.join(', ')} (got "${value}")`);
}
