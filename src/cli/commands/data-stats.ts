/** `apb data stats DIR [--compare DIR2] [--format md|json]`: the paper's dataset statistics (Tables 10–11) beside the release's. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import { datasetStats } from '../../dataset/stats.js';
import { renderStatsMarkdown } from '../../dataset/stats-markdown.js';
import { loadReleaseStats } from '../../dataset/stats-release.js';
import { UsageError } from '../../errors.js';
import type { CommandOutcome } from '../outcome.js';

/** Registers `stats` under `apb data`. */
export function registerDataStats(
  data: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  data
    .command('stats')
    .argument('<dir>', 'dataset directory (DIR/data/{split}.jsonl), or "sample"')
    .description(
      "per split and source: cases, parents, steps per case, tools per query, categories, horizons, stages, levels, unsolvable types — beside the release's figures from the paper",
    )
    .option('--compare <dir2>', 'a second dataset, in its own column')
    .option('--format <format>', 'md or json', 'md')
    .action(async (dir: string, options: { compare?: string; format: string }) => {
      if (options.format !== 'md' && options.format !== 'json')
        throw new UsageError(`--format takes md or json (got "${options.format}")`);
      const dirs = [dir, ...(options.compare ? [options.compare] : [])];
      const datasets = [];
      for (const entry of dirs)
        datasets.push({ ...(await datasetStats(resolveDatasetDir(entry), limits)), dir: entry });
      const release = loadReleaseStats();
      process.stdout.write(
        options.format === 'json'
          ? `${JSON.stringify({ datasets, release }, null, 2)}\n`
          : renderStatsMarkdown(datasets, release),
      );
      outcome.exitCode = 0;
    });
}
