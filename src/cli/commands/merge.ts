/** `apb merge DIR... --out DIR`: shard run directories → one run directory, with its scores and reports. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import path from 'node:path';
import { mergeRuns } from '../../pipeline/merge.js';
import { acquireRunLock } from '../../rundir/lock.js';
import { writeRunReports } from '../../report/write-reports.js';
import { writeRunOutputs } from '../../pipeline/outputs.js';
import type { CommandOutcome } from '../outcome.js';
import { say } from '../terminal.js';

/** Registers `apb merge`. */
export function registerMergeCommand(program: Command, outcome: CommandOutcome): void {
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
      const lock = acquireRunLock(path.resolve(options.out), 'merge');
      let summary: Awaited<ReturnType<typeof mergeRuns>>;
      try {
        summary = await mergeRuns(dirs, options.out);
        for (const warning of summary.warnings) say(`apb: warning: ${warning}`);
        await writeRunOutputs(summary.outDir, writeRunReports, (message) =>
          say(`apb: warning: ${message}`),
        );
      } finally {
        lock.release();
      }
      say(
        `apb: merged ${dirs.length} run director${dirs.length === 1 ? 'y' : 'ies'}: ${summary.judgements} judgement(s), ${summary.predictions} prediction(s), status ${summary.manifest.status}; results in ${options.out}`,
      );
      outcome.exitCode = 0;
    });
}
