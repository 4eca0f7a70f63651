/** `apb score RUN_DIR`: recompute scores.json from judgements.jsonl (ours or the official harness's). */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { keepForeignScores, writeScores } from '../../pipeline/outputs.js';
import { withRunLock } from '../../rundir/lock.js';
import type { CommandOutcome } from '../outcome.js';
import { say } from '../terminal.js';

export function registerScoreCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('score')
    .argument('<run-dir>', 'a run directory holding judgements.jsonl')
    .description('recompute scores.json: the official groups plus every paper table the run fills')
    .action(async (runDir: string) => {
      const dir = path.resolve(runDir);
      if (!existsSync(path.join(dir, 'judgements.jsonl')))
        throw new UsageError(`${runDir} has no judgements.jsonl`);
      const kept = await withRunLock(dir, 'score', async () => {
        const backup = keepForeignScores(dir);
        await writeScores(dir, (message) => say(`warning: ${message}`), limits);
        return backup;
      });
      if (kept)
        process.stdout.write(
          `apb: the scores.json already in ${runDir} was not written by apb (the official harness's?): kept as ${path.join(runDir, kept)}\n`,
        );
      say(`apb: wrote ${path.join(runDir, 'scores.json')}`);
      outcome.exitCode = 0;
    });
}
