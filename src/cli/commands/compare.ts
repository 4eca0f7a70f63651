/** `apb compare RUN_A RUN_B [--format md|json]`: per-case differences of two runs, with the paired test. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { compareRunDirs } from '../../pipeline/compare-runs.js';
import { compareMarkdown } from '../../report/compare-markdown.js';
import type { CommandOutcome } from '../outcome.js';

const FORMATS = ['md', 'json'] as const;

/** Registers `apb compare`. */
export function registerCompareCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('compare')
    .argument('<run-a>', 'a judged run directory')
    .argument('<run-b>', 'another judged run directory')
    .description(
      'compare two runs case by case: CR on their shared cases overall and per split, the exact McNemar test, and every case on which they differ',
    )
    .option('--format <format>', 'md or json', 'md')
    .action(async (runA: string, runB: string, options: { format: string }) => {
      if (!(FORMATS as readonly string[]).includes(options.format))
        throw new UsageError(
          `--format must be one of ${FORMATS.join(', ')} (got "${options.format}")`,
        );
      const comparison = await compareRunDirs(runA, runB, limits);
      if (comparison.overall.shared === 0)
        throw new UsageError(`${runA} and ${runB} share no judged case (split, id, repeat)`);
      process.stdout.write(
        options.format === 'json'
          ? `${JSON.stringify(comparison, null, 2)}\n`
          : compareMarkdown(comparison),
      );
      outcome.exitCode = 0;
    });
}
