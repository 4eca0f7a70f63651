/**
 * The release's own statistics as the paper prints or implies them (§3.1, Appendix B.1, Tables
 * 10–11), from data/release-stats.json: what `apb data stats` sets beside a dataset's figures.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const counts = z.record(z.string(), z.number());

const releaseSplit = z.object({
  cases: z.number(),
  parents: z.number().optional(),
  avg_steps: z.number().optional(),
  steps_bins: z.array(z.number()).length(3).optional(),
  avg_tools: z.number().optional(),
  categories: z.number().optional(),
  horizons: counts.optional(),
  stages: counts.optional(),
  levels: counts.optional(),
  unsolvable_types: counts.optional(),
  broken_tool_used_earlier: z.number().optional(),
});

const releaseStatsSchema = z.object({
  source: z.string(),
  splits: z.record(z.string(), releaseSplit),
  total: z.number(),
  augmentation: z.object({
    avg_steps: z.number(),
    avg_steps_increase: z.number(),
    avg_tools: z.number(),
    avg_tools_increase: z.number(),
    datasets: z.array(z.string()),
  }),
  table10_holistic_steps: z.array(
    z.object({
      dataset: z.string(),
      total: z.number(),
      avg_steps: z.number(),
      steps_1_10: z.number(),
      steps_11_20: z.number(),
      steps_gt_20: z.number(),
    }),
  ),
  table11_categories: counts,
});

/** The release's figures. */
export type ReleaseStats = z.infer<typeof releaseStatsSchema>;
/** The release's figures for one split. */
export type ReleaseSplitStats = z.infer<typeof releaseSplit>;

const RELEASE_URL = new URL('../../data/release-stats.json', import.meta.url);

/** Reads and checks data/release-stats.json (or another file of that shape). */
export function loadReleaseStats(file: string | URL = RELEASE_URL): ReleaseStats {
  const parsed = releaseStatsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${String(file)}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
