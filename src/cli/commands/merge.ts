/** `apb merge DIR... --out DIR`: shard run directories → one run directory, with its scores and reports. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { mergeRunDirs } from '../../engine/merge.js';
import type { CommandOutcome } from '../outcome.js';
import { say } from '../terminal.js';

/** Registers `apb merge`. */
export function registerMergeCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('merge')
    .description(
      'merge shard run directories (apb run --shard I/N) into one run directory; refuses directories of different runs',
    )
    .argument('<run-dirs...>', 'run directories written by apb run (the shards of one run)')
    .option('--out <dir>', 'the merged run directory (must not hold a run yet)')
    .action(async (dirs: string[], options: { out?: string }) => {
      if (!options.out)
        throw new UsageError('apb merge needs --out DIR (a new directory for the merged run)');
      const warn = (message: string) => say(`apb: warning: ${message}`);
      const summary = await mergeRunDirs(dirs, options.out, warn, limits);
      say(
        `apb: merged ${dirs.length} run director${dirs.length === 1 ? 'y' : 'ies'}: ${summary.judgements} judgement(s), ${summary.predictions} prediction(s), status ${summary.manifest.status}; results in ${options.out}`,
      );
      outcome.exitCode = 0;
    });
}
