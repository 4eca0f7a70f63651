/** `apb view RUN_DIR... [--port N]`: the report's interface served live on 127.0.0.1 until Ctrl-C. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { discoverRunDirs } from '../../report/viewer/discover.js';
import { isExecRunDir } from '../../report/viewer/exec-site.js';
import { startViewer } from '../../report/viewer/server.js';
import { untilStopped } from '../interrupts.js';
import { port } from '../options.js';
import type { CommandOutcome } from '../outcome.js';
import { say } from '../terminal.js';

/** With no argument the viewer opens `runs/`, where `apb run` writes by default. */
function defaultRunsFolder(): string {
  if (!existsSync('runs'))
    throw new UsageError(
      'apb view: no runs/ folder here (apb run writes there by default); give RUN_DIR or a folder of runs',
    );
  return 'runs';
}

/** Registers `apb view`. */
export function registerViewCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('view')
    .description('serve the report and case browser on 127.0.0.1, re-reading the runs as they grow')
    .argument(
      '[run-dirs...]',
      'run directories (a running one is fine), or folders to search for them (default: runs/), or one apb exec run directory',
    )
    .option('--port <n>', 'port to listen on (default: a free port)', port, 0)
    .option('--compare-paper', "put the paper's published numbers beside ours", false)
    .action(async (given: string[], options: { port: number; comparePaper: boolean }) => {
      const dirs = given.length > 0 ? given : [defaultRunsFolder()];
      const exec = dirs.filter(isExecRunDir);
      if (exec.length > 0 && dirs.length > 1)
        throw new UsageError(
          `apb view shows one exec run directory at a time, alone (${exec[0]} is one)`,
        );
      if (exec.length === 0) for (const dir of dirs) discoverRunDirs(dir);
      const viewer = await startViewer(dirs, {
        port: options.port,
        comparePaper: options.comparePaper,
        limits,
      });
      process.stdout.write(`${viewer.url}\n`);
      say('apb: viewer running; press Ctrl-C to stop');
      await untilStopped();
      await viewer.close();
      say('apb: viewer stopped');
      outcome.exitCode = 0;
    });
}
