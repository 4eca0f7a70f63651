/** `apb judge RUN_DIR --judge SPEC [--judge SPEC…]`: re-judge a run's saved predictions without calling the planner. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { addModelFlags, judgeSamplingOf } from '../model-flags.js';
import { ENGINE_DEFAULTS } from '../../defaults.js';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { runRejudge } from '../../engine/rejudge.js';
import type { JudgeSamplingFlags } from '../../engine/resolve.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { choice, collect, nonNegativeInt, positiveInt } from '../options.js';
import { PROTOCOLS } from '../../pipeline/run-spec.js';
import { limitHeapGrowth } from '../heap.js';
import { handleInterrupts } from '../interrupts.js';
import { createProgressReporter } from '../progress.js';
import { defaultCacheDir } from '../../engine/providers.js';
import { say } from '../terminal.js';

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

export function registerJudgeCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
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
    .option('--concurrency <n>', 'answers judged at once', positiveInt, ENGINE_DEFAULTS.concurrency)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, ENGINE_DEFAULTS.timeoutMs)
    .option(
      '--max-retries <n>',
      'retries of a retryable failure',
      nonNegativeInt,
      ENGINE_DEFAULTS.maxRetries,
    )
    .option('--no-cache', 'bypass the response cache (no read, no write)')
    .action((runDir: string, options: JudgeOptions) =>
      judgeAction(runDir, options, outcome, limits),
    );
  addModelFlags(command, 'judge-', 'every LLM judge (its temperature stays 0)', ['temperature']);
}

/** Re-judges RUN_DIR (or into --out) and says what was judged. */
async function judgeAction(
  runDir: string,
  options: JudgeOptions,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  if (!options.judge || options.judge.length === 0)
    throw new UsageError('apb judge needs at least one --judge SPEC');
  limitHeapGrowth();
  const interrupts = handleInterrupts();
  try {
    const summary = await runRejudge(
      {
        runDir,
        ...(options.out ? { outDir: options.out } : {}),
        dataDir: options.data ?? null,
        judgeIds: options.judge,
        judgeBaseUrl: options.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null,
        ...(options.protocol ? { protocol: options.protocol } : {}),
        blind: options.judgeBlind,
        judgeSampling: judgeSamplingOf(
          options as unknown as Record<string, unknown>,
        ) as JudgeSamplingFlags | null,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        cache: options.cache,
        cacheDir: defaultCacheDir(process.env),
        limits,
      },
      {
        reporter: createProgressReporter({ tty: Boolean(process.stderr.isTTY) }),
        stop: interrupts.stop,
        signal: interrupts.cancel,
        onImported: (from, dir) => say(`apb: official predictions of ${from} imported into ${dir}`),
      },
    );
    say(
      `apb: ${summary.judge}: ${summary.judged} judged, ${summary.alreadyDone} already judged, 0 planner calls; scores in ${summary.scoresFile}`,
    );
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}
