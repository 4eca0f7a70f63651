/**
 * Dataset statistics as the paper reports its release (§3.1, Appendix B.1, Tables 10–11): per
 * split and per source, the cases, distinct parent tasks, reference steps per case (with Table
 * 10's 1–10 / 11–20 / >20 bins), tools listed per query, and the counts of categories, horizons,
 * trajectory stages, extraneous levels and unsolvable types; for tool-broken cases, how many break
 * a tool that already worked earlier in the trajectory (F.3). Pure over cases; `datasetStats` reads
 * a directory. The release's own figures are in data/release-stats.json (stats-release.ts).
 */
import type { Limits } from '../limits.js';
import { SPLITS, type Case, type SplitName } from './case.js';
import { readAllCases } from './read-cases.js';

/** Counts of one facet's values (absent values are not counted). */
export type Counts = Record<string, number>;

/** The statistics of one group of cases (a split, or one source within it). */
export interface GroupStats {
  cases: number;
  /** Distinct parent tasks (`baseCaseKey`): the 150 + 150 extraneous parents, the 100 unsolvable ones. */
  parents: number;
  /** Mean reference steps per case (holistic: the tool chain; step-wise: prefix plus reference). */
  avg_steps: number | null;
  /** Table 10's bins of reference steps. */
  steps_bins: { '1-10': number; '11-20': number; '>20': number };
  /** Mean tools listed per query. */
  avg_tools: number | null;
  categories: Counts;
  horizons: Counts;
  stages: Counts;
  levels: Counts;
  unsolvable_types: Counts;
  modalities: Counts;
  /** Tool-broken only: cases whose broken tool was called successfully earlier in the prefix; null elsewhere. */
  broken_tool_used_earlier: number | null;
}

/** One split's statistics, in total and per source. */
export interface SplitStats extends GroupStats {
  split: SplitName;
  sources: Record<string, GroupStats>;
}

/** The statistics of a whole dataset. */
export interface DatasetStats {
  dir: string;
  cases: number;
  invalid: number;
  splits: SplitStats[];
}

const bump = (counts: Counts, key: string | number | null | undefined) => {
  if (key === null || key === undefined) return;
  counts[String(key)] = (counts[String(key)] ?? 0) + 1;
};

const mean = (values: readonly number[]) =>
  values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;

/**
 * Whether the broken tool was called earlier in the prefix than its last (failing) call: the
 * release breaks a tool that worked before (F.3), not one on its first use.
 */
export function brokenToolUsedEarlier(item: Case): boolean {
  const broken = item.reference.brokenToolName;
  if (!broken) return false;
  const calls = item.input.trajectoryPrefix.flatMap((message) =>
    message.role === 'assistant'
      ? message.toolCalls.filter((call) => call.name === broken).map(() => 1)
      : [],
  );
  return calls.length >= 2;
}

/** The statistics of one group of cases. */
export function groupStats(cases: readonly Case[]): GroupStats {
  const counts = () => ({}) as Counts;
  const stats: GroupStats = {
    cases: cases.length,
    parents: new Set(cases.map((item) => item.facets.baseCaseKey)).size,
    avg_steps: mean(cases.map((item) => item.facets.referenceSteps)),
    steps_bins: { '1-10': 0, '11-20': 0, '>20': 0 },
    avg_tools: mean(cases.map((item) => item.input.tools.length)),
    categories: counts(),
    horizons: counts(),
    stages: counts(),
    levels: counts(),
    unsolvable_types: counts(),
    modalities: counts(),
    broken_tool_used_earlier: null,
  };
  for (const item of cases) {
    const steps = item.facets.referenceSteps;
    stats.steps_bins[steps <= 10 ? '1-10' : steps <= 20 ? '11-20' : '>20'] += 1;
    bump(stats.categories, item.facets.taskCategory);
    bump(stats.horizons, item.facets.regime === 'Step-wise' ? item.facets.horizon : null);
    bump(stats.stages, item.facets.stage);
    bump(stats.levels, item.facets.distractorLevel);
    bump(stats.unsolvable_types, item.facets.unsolvableType);
    bump(stats.modalities, item.facets.modality);
  }
  if (cases.some((item) => item.split === 'step_wise_tool_broken'))
    stats.broken_tool_used_earlier = cases.filter(brokenToolUsedEarlier).length;
  return stats;
}

/** Per split (in the release's order), in total and per source. */
export function statsOf(cases: readonly Case[], dir = '', invalid = 0): DatasetStats {
  const splits = SPLITS.flatMap((split): SplitStats[] => {
    const own = cases.filter((item) => item.split === split);
    if (own.length === 0) return [];
    const bySource = new Map<string, Case[]>();
    for (const item of own) {
      const source = item.facets.source ?? '(none)';
      bySource.set(source, [...(bySource.get(source) ?? []), item]);
    }
    const sources = Object.fromEntries(
      [...bySource]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, list]) => [s, groupStats(list)]),
    );
    return [{ split, ...groupStats(own), sources }];
  });
  return { dir, cases: cases.length, invalid, splits };
}

/** Reads a dataset directory and computes its statistics (invalid records are counted, not used). */
export async function datasetStats(dir: string, limits?: Limits): Promise<DatasetStats> {
  const { cases, invalidRecords } = await readAllCases(dir, {
    skipInvalid: true,
    ...(limits ? { limits } : {}),
  });
  return statsOf(cases, dir, invalidRecords);
}
