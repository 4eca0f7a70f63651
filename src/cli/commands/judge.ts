/** `apb judge RUN_DIR --judge SPEC [--judge SPEC…]`: re-judge a run's saved predictions without calling the planner. */
import { addModelFlags, judgeSamplingOf } from '../model-flags.js';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { writeRunReports } from '../../report/write-reports.js';
import { writeRunOutputs } from '../../pipeline/outputs.js';
import { readManifest } from '../../pipeline/manifest.js';
import { rejudgeRun } from '../../pipeline/rejudge.js';
import { acquireRunLock } from '../../rundir/lock.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { choice, collect, nonNegativeInt, positiveInt } from '../options.js';
import { PROTOCOLS } from '../../pipeline/run-spec.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts } from '../interrupts.js';
import { createProgressReporter } from '../progress.js';
import { resolveJudge } from '../resolve.js';
import { createRunProviders, defaultCacheDir } from '../run-providers.js';
import { say } from '../terminal.js';
import { existsSync, statSync } from 'node:fs';
import { resolveDatasetDir } from '../../dataset/read-cases.js';
import {
  importOfficialPredictions,
  officialPredictionsFile,
} from '../../pipeline/official-import.js';

/** True for a run directory apb wrote (its manifest.json); an official predictions file or folder is not one. */
function isRunWithManifest(target: string): boolean {
  if (!existsSync(target)) throw new UsageError(`run directory not found: ${target}`);
  return statSync(target).isDirectory() && existsSync(path.join(target, 'manifest.json'));
}

/** An official-harness predictions file (no manifest.json) imported into a run directory first. */
async function importedDir(target: string, options: JudgeOptions): Promise<string> {
  const dir = await importOfficialPredictions({
    file: officialPredictionsFile(target),
    datasetDir: resolveDatasetDir(options.data ?? 'sample'),
    outDir: path.resolve(options.out ?? officialOutDir(target)),
    protocol: options.protocol ?? 'official',
  });
  say(`apb: official predictions of ${target} imported into ${dir}`);
  return dir;
}

/** Where an official predictions file is imported by default: `NAME-apb` beside it. */
function officialOutDir(target: string): string {
  const resolved = path.resolve(target);
  const base = statSync(resolved).isDirectory()
    ? resolved
    : resolved.slice(0, -path.extname(resolved).length || undefined);
  return `${base}-apb`;
}

interface JudgeOptions {
  judge?: string[];
  out?: string;
  judgeBaseUrl?: string;
  protocol?: (typeof PROTOCOLS)[number];
  judgeBlind: boolean;
  data?: string;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
}

export function registerJudgeCommand(program: Command, outcome: CommandOutcome): void {
  const command = program
    .command('judge')
    .description(
      '(re)judge the saved predictions of a run with other judges, without calling the planner',
    )
    .argument(
      '<run-dir>',
      "a run directory written by apb run, or the official harness's predictions (a .jsonl file, or a directory with predictions.jsonl and no manifest.json: imported into --out, default NAME-apb beside it, with the cases read from --data)",
    )
    .option('--judge <spec>', 'judge: rules or PROVIDER:MODEL (repeat for a panel)', collect)
    .option(
      '--out <dir>',
      'write into a new directory (predictions copied); default: append to RUN_DIR',
    )
    .option('--judge-base-url <url>', 'endpoint of the judge model')
    .option(
      '--protocol <name>',
      "judge protocol: paper or official (default: the run's)",
      choice(PROTOCOLS),
    )
    .option('--judge-blind', "judge without the reference (the paper's Table 7 ablation)", false)
    .option('--data <dir>', "the run's dataset, if it has moved (its content must be unchanged)")
    .option('--concurrency <n>', 'answers judged at once', positiveInt, 8)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, 120_000)
    .option('--max-retries <n>', 'retries of a retryable failure', nonNegativeInt, 6)
    .option('--no-cache', 'bypass the response cache (no read, no write)')
    .action(async (runDir: string, options: JudgeOptions) => {
      if (!options.judge || options.judge.length === 0)
        throw new UsageError('apb judge needs at least one --judge SPEC');
      const official = !isRunWithManifest(runDir);
      const dir = official ? await importedDir(runDir, options) : path.resolve(runDir);
      const runProtocol = readManifest(dir)?.identity.protocol ?? 'paper';
      const protocol = options.protocol ?? runProtocol;
      const judgeBaseUrl = options.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null;
      limitHeapGrowth();
      const outDir = official ? dir : path.resolve(options.out ?? dir);
      const lock = acquireRunLock(outDir, 'judge');
      const providers = createRunProviders({
        concurrency: options.concurrency,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        cache: options.cache,
        cacheDir: defaultCacheDir(process.env),
      });
      const interrupts = handleInterrupts();
      try {
        const sampling = judgeSamplingOf(options as unknown as Record<string, unknown>);
        const judge = resolveJudge(options.judge, providers, {
          baseUrl: judgeBaseUrl,
          protocol,
          blind: options.judgeBlind,
          ...(sampling ? { sampling } : {}),
        });
        const summary = await rejudgeRun(
          {
            runDir: dir,
            outDir,
            dataDir: official ? null : (options.data ?? null),
            judge,
            judgeIds: options.judge,
            judgeBaseUrl,
            protocol,
            blind: options.judgeBlind,
            concurrency: options.concurrency,
          },
          {
            reporter: createProgressReporter({ tty: Boolean(process.stderr.isTTY) }),
            stop: interrupts.stop,
            signal: interrupts.cancel,
            lock,
          },
        );
        await writeRunOutputs(summary.dir, writeRunReports);
        say(
          `apb: ${judge.id}: ${summary.judged} judged, ${summary.alreadyDone} already judged, 0 planner calls; scores in ${path.join(summary.dir, 'scores.json')}`,
        );
        outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
      } finally {
        interrupts.dispose();
        providers.close();
        lock.release();
      }
    });
  addModelFlags(command, 'judge-', 'every LLM judge (its temperature stays 0)', ['temperature']);
}
