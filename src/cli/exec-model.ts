/**
 * `apb exec --mode direct|plan-first|refine[,…] --model SPEC …`: the model agent path of `apb exec` —
 * its flags mapped to `runModelExecution`'s spec (src/engine/exec-model.ts), its progress line and
 * summary printed; exec-envs.ts shares these pieces for several environments. The replay path
 * (`--agent replay:…`) is the command's other branch.
 */
import type { Limits } from '../limits.js';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { Environment, ExecTask } from '../execution/environment.js';
import { EXEC_MODES, type ExecMode } from '../metrics/executable.js';
import {
  runModelExecution,
  type ModelExecutionHooks,
  type ModelExecutionSpec,
  type ModelExecutionSummary,
} from '../engine/exec-model.js';
import { defaultCacheDir } from '../engine/providers.js';
import type { JudgeSamplingFlags } from '../engine/resolve.js';
import { buildExecSummary } from '../report/exec-summary.js';
import { dryRunText } from './exec-dry-run.js';
import { createExecProgress } from './exec-progress.js';
import { handleInterrupts, type Interrupts } from './interrupts.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { printSummary, shown } from './summary-text.js';
import { judgeSamplingOf, modelFlagsOf } from './model-flags.js';
import { say } from './terminal.js';

/** The flags of the model path. */
export interface ModelExecFlags {
  /** The size caps `main` read (`APB_MAX_*`), not a flag. */
  limits?: Limits;
  mode: string;
  model?: string;
  baseUrl?: string;
  userModel?: string;
  /** `--no-nl-judge`: keep NL assertions unjudged (null rewards) even with a --judge. */
  nlJudge?: boolean;
  userBaseUrl?: string;
  critic?: string;
  criticBaseUrl?: string;
  metric: boolean;
  judge?: string;
  judgeBaseUrl?: string;
  trials: number;
  maxSteps: number;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  maxCost?: number;
  temperature?: number;
  userTemperature?: number;
  dryRun: boolean;
  comparePaper?: boolean;
  retryErrors?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** `direct,plan-first` → the modes, in the paper's order; an unknown one is a usage error naming the known ones. */
export function parseModes(value: string): ExecMode[] {
  const asked = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const mode of asked)
    if (!(EXEC_MODES as readonly string[]).includes(mode))
      throw new UsageError(
        `--mode must be one or more of ${EXEC_MODES.join(', ')} separated by commas (got "${mode}")`,
      );
  if (asked.length === 0) throw new UsageError('--mode names no mode');
  return EXEC_MODES.filter((mode) => asked.includes(mode));
}

const USER_SOURCES = {
  'user-model': '--user-model',
  'tested-model': 'the tested model: no --judge or --user-model given',
  'judge-model': 'the --judge model: no --user-model given',
} as const;

/** The agent's, the user simulator's and (when given) the refine critic's options. */
function samplingOf(flags: ModelExecFlags): NonNullable<ModelExecutionSpec['sampling']> {
  const critic = modelFlagsOf(flags, 'critic-');
  return {
    agent: modelFlagsOf(flags, ''),
    user: modelFlagsOf(flags, 'user-'),
    ...(Object.keys(critic).length > 0 ? { critic: { temperature: 0, ...critic } } : {}),
  };
}

/** The flags → the library's spec without the environment and its tasks (one run or several). */
export function specOf(
  outDir: string,
  flags: ModelExecFlags,
  model: string,
): Omit<ModelExecutionSpec, 'environment' | 'tasks'> {
  return {
    outDir,
    modes: parseModes(flags.mode),
    model,
    baseUrl: flags.baseUrl ?? process.env.APB_BASE_URL ?? null,
    ...(flags.userModel ? { userModel: flags.userModel } : {}),
    userBaseUrl: flags.userBaseUrl ?? null,
    ...(flags.critic ? { critic: flags.critic } : {}),
    criticBaseUrl: flags.criticBaseUrl ?? null,
    judge: flags.judge ?? 'rules',
    judgeBaseUrl: flags.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null,
    nlJudge: flags.nlJudge !== false,
    taxonomy: flags.metric,
    trials: flags.trials,
    maxSteps: flags.maxSteps,
    concurrency: flags.concurrency,
    timeoutMs: flags.timeoutMs,
    maxRetries: flags.maxRetries,
    cache: flags.cache,
    cacheDir: defaultCacheDir(process.env),
    ...(flags.maxCost ? { maxCost: flags.maxCost } : {}),
    sampling: samplingOf(flags),
    judgeSampling: judgeSamplingOf(
      flags as unknown as Record<string, unknown>,
    ) as JudgeSamplingFlags | null,
    comparePaper: flags.comparePaper === true,
    retryErrors: flags.retryErrors === true,
  };
}

/** The progress line and notices the command shows around the library run. */
export function hooksOf(flags: ModelExecFlags, interrupts: Interrupts): ModelExecutionHooks {
  const talk = !flags.quiet && !flags.json;
  return {
    stop: interrupts.stop,
    signal: interrupts.cancel,
    onPlayers: ({ user, userSource }) =>
      talk && say(`apb: user simulator ${user} (${USER_SOURCES[userSource]})`),
    onRetryErrors: (dropped) => {
      if (!flags.quiet && dropped.executions + dropped.openings > 0)
        say(
          `apb: --retry-errors: ${dropped.executions} execution(s) and ${dropped.openings} opening(s) left by infrastructure errors are made again`,
        );
    },
    progress: (calls) => {
      const line = createExecProgress({
        tty: Boolean(process.stderr.isTTY),
        quiet: Boolean(flags.quiet),
        calls,
      });
      return {
        start: (event) => line.start({ ...event, dir: shown(event.outDir) }),
        onExecution: (execution) => line.onExecution(execution),
        end: () => line.end(),
      };
    },
  };
}

/** The tested model of the flags, refused when it cannot act as an agent or a flag does not fit. */
export function modelOf(flags: ModelExecFlags): string {
  const modes = parseModes(flags.mode);
  const model = flags.model ?? process.env.APB_MODEL;
  if (!model)
    throw new UsageError('apb exec --mode … needs --model PROVIDER:MODEL (the tested model)');
  if (model.startsWith('baseline:') || model === 'rules')
    throw new UsageError(
      `--model ${model} cannot act as an agent: give a model (PROVIDER:MODEL), or --agent replay:FILE for a scripted one`,
    );
  if (flags.critic && !modes.includes('refine'))
    throw new UsageError('--critic applies to --mode refine only');
  return model;
}

/** `--dry-run`: what the run would execute in one environment, on stdout. */
export function printDryRun(
  environment: Environment,
  tasks: readonly ExecTask[],
  flags: ModelExecFlags,
  model: string,
): void {
  const modes = parseModes(flags.mode);
  process.stdout.write(dryRunText(environment, tasks, modes, model, flags.judge ?? 'rules', flags));
}

/** The summary of one environment's run (and the budget's notice), as the command prints it. */
export function printModelSummary(
  flags: ModelExecFlags,
  result: ModelExecutionSummary,
  run: { env: string; outDir: string; wallMs: number },
): void {
  printSummary(
    { quiet: Boolean(flags.quiet), json: Boolean(flags.json) },
    buildExecSummary(result.scores, {
      command: 'exec',
      wallMs: run.wallMs,
      dir: shown(run.outDir),
      env: run.env,
      model: result.agent,
      judge: result.judge,
      status: result.status,
      retries: result.retries,
      rateLimited: result.rateLimited,
      reportHtml: shown(path.join(run.outDir, 'report.html')),
      reportMd: shown(path.join(run.outDir, 'report.md')),
      viewCommand: `npx apb view ${shown(run.outDir)}`,
    }),
  );
  const budget = result.budget;
  if (budget?.exhausted)
    say(
      `apb: stopped by --max-cost ${flags.maxCost} USD after spending about ` +
        `${budget.spentUsd.toFixed(4)} USD; ${budget.notRun} execution(s) not run ` +
        '(rerun with a higher --max-cost to resume them)',
    );
}

/** Runs the model path of `apb exec` over the selected tasks into `outDir`. */
export async function runModelExec(
  environment: Environment,
  tasks: readonly ExecTask[],
  outDir: string,
  flags: ModelExecFlags,
  outcome: CommandOutcome,
): Promise<void> {
  const started = Date.now();
  const model = modelOf(flags);
  if (flags.dryRun) return printDryRun(environment, tasks, flags, model);
  const interrupts = handleInterrupts();
  try {
    const result = await runModelExecution(
      { ...specOf(outDir, flags, model), environment, tasks },
      hooksOf(flags, interrupts),
    );
    printModelSummary(flags, result, {
      env: environment.id,
      outDir,
      wallMs: Date.now() - started,
    });
    outcome.exitCode = result.run.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}
