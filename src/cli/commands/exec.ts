/** `apb exec --env tau2:retail|tau2:airline|tau2:telecom --agent replay:FILE|replay:gold [--dump-db DIR] --out DIR`: executable validation. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { isCodeSpec } from '../../providers/code/spec.js';
import { addModelFlags } from '../model-flags.js';
import { EXEC_DEFAULTS } from '../../defaults.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { didYouMean } from '../../did-you-mean.js';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Environment } from '../../execution/environment.js';
import { loadEnvironment } from '../../execution/registry.js';
import { runReplayExecution } from '../../engine/exec-replay.js';
import { selectTasks } from '../../engine/exec-tasks.js';
import { handleInterrupts } from '../interrupts.js';
import { commaList } from '../options.js';
import { withModelAgentFlags, withRunFlags, withTaskFlags } from './exec-flags.js';
import { EXIT, type CommandOutcome } from '../outcome.js';
import { defaultCacheDir } from '../../engine/providers.js';
import { say } from '../terminal.js';
import { runModelExec, type ModelExecFlags } from '../exec-model.js';
import { readTaskSubset, subsetIdsFor } from '../../execution/tau2-subset.js';
import { runModelExecEnvs } from '../exec-envs.js';
import { runToolSandboxExec } from '../exec-toolsandbox.js';

interface ExecFlags extends Partial<
  Omit<ModelExecFlags, 'timeoutMs' | 'maxRetries' | 'cache' | 'judge' | 'judgeBaseUrl'>
> {
  comparePaper?: boolean;
  env: string;
  subset?: string;
  agent?: string;
  tasks?: string[];
  taskSplit: string;
  limit?: number;
  dumpDb?: string;
  out?: string;
  judge?: string;
  judgeBaseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
}

/** The split names of an environment (tau2's split file: train, test, base; telecom also small, full), and `all`. */
function splitOf(environment: Environment, value: string): string {
  const names = [...Object.keys(environment.splits), 'all'];
  if (!names.includes(value))
    throw new UsageError(
      `--task-split must be one of ${names.join(', ')} for ${environment.id} (got "${value}")`,
    );
  return value;
}

/** `replay:gold` → `gold`; `replay:FILE` → the file's absolute path. */
function replayAgent(spec: string | undefined): string {
  if (!spec) throw new UsageError('apb exec needs --agent replay:FILE or --agent replay:gold');
  if (!spec.startsWith('replay:') || spec.length === 'replay:'.length)
    throw new UsageError(`--agent must be replay:FILE or replay:gold (got "${spec}")`);
  const target = spec.slice('replay:'.length);
  if (target === 'gold') return 'gold';
  const file = path.resolve(target);
  if (!existsSync(file))
    throw new UsageError(
      `--agent ${spec}: no file ${file}${didYouMean(spec, ['replay:gold']) || ' (give replay:gold for the reference actions, or replay:FILE with a JSONL file)'}`,
    );
  return file;
}

/** Registers `apb exec`. */
export function registerExecCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  const command = program
    .command('exec')
    .description(
      "execute tasks in tau2-bench's retail, airline or telecom environment or in ToolSandbox, and score them with the environment's own reward (tau2's reward, ToolSandbox's similarity)",
    );
  withRunFlags(withModelAgentFlags(withTaskFlags(command))).action((flags: ExecFlags) =>
    branchOf({ ...flags, limits }, outcome),
  );
  addModelFlags(command, '', 'the tested model', ['temperature']);
  addModelFlags(command, 'user-', 'the user simulator', ['temperature']);
  addModelFlags(command, 'critic-', 'the refine critic (default temperature 0)');
  addModelFlags(command, 'judge-', 'the plan judge (its temperature stays 0)', ['temperature']);
}

/** Which branch runs: ToolSandbox's, a model agent (or an agent as code), or a replay. */
function branchOf(flags: ExecFlags, outcome: CommandOutcome): Promise<void> {
  if (flags.env === 'toolsandbox') return runToolSandboxExec(flags, outcome);
  if (!flags.agent) return modelBranch(flags, outcome);
  if (isCodeSpec(flags.agent)) return modelBranch(codeAgentFlags(flags), outcome);
  return replayBranch(flags, outcome);
}

/**
 * `--agent module:|cmd:|http:`: an agent as code runs the model path in its own loop, turn by turn
 * (direct mode: it gets the conversation and the tools, and answers a message or tool calls).
 */
function codeAgentFlags(flags: ExecFlags): ExecFlags {
  if (flags.model)
    throw new UsageError(
      `--agent ${flags.agent} is the tested agent: drop --model ${flags.model} (or use --model without --agent)`,
    );
  if (flags.mode && flags.mode !== 'direct')
    throw new UsageError(
      `--agent ${flags.agent} runs in --mode direct only: plan-first and refine need a model that also plans`,
    );
  if (!flags.userModel && (!flags.judge || flags.judge === 'rules'))
    throw new UsageError(
      `--agent ${flags.agent} needs --user-model SPEC (or an LLM --judge, which then plays the user): an agent as code cannot also play the user simulator`,
    );
  return { ...flags, model: flags.agent!, mode: 'direct' };
}

/** The scripted-agent branch: `--agent replay:FILE|replay:gold`. */
async function replayBranch(flags: ExecFlags, outcome: CommandOutcome): Promise<void> {
  if (flags.mode)
    throw new UsageError(
      '--agent replay:… and --mode exclude each other: a scripted agent has no mode',
    );
  const agent = replayAgent(flags.agent);
  if (!flags.out) throw new UsageError('apb exec needs --out DIR');
  if (flags.judge === 'rules' || flags.judge?.startsWith('baseline:'))
    throw new UsageError(
      `--judge ${flags.judge} cannot judge NL assertions: give an LLM (PROVIDER:MODEL)`,
    );
  const environment = loadEnvironment(flags.env);
  const split = splitOf(environment, flags.taskSplit);
  const interrupts = handleInterrupts();
  try {
    const summary = await runReplayExecution({
      environment,
      agent,
      taskIds: flags.tasks ?? null,
      split,
      limit: flags.limit ?? null,
      outDir: path.resolve(flags.out),
      dumpDbDir: flags.dumpDb ? path.resolve(flags.dumpDb) : null,
      judge: flags.judge ?? null,
      judgeBaseUrl: flags.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null,
      timeoutMs: flags.timeoutMs,
      maxRetries: flags.maxRetries,
      cache: flags.cache,
      cacheDir: defaultCacheDir(process.env),
      stop: interrupts.stop,
      signal: interrupts.cancel,
      comparePaper: flags.comparePaper === true,
      ...(flags.limits ? { limits: flags.limits } : {}),
    });
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ command: 'exec', env: environment.id, ...summary }, null, 2)}\n`,
      );
    const unjudged =
      summary.unjudged > 0
        ? `, ${summary.unjudged} with NL assertions not evaluated (${summary.unjudgedWouldPass} would reach 1.0 if they hold; ${flags.judge ? `the judge ${flags.judge} gave no readable verdict for them (the reasons are in executions.jsonl)` : 'give --judge to evaluate them'})`
        : '';
    if (!flags.quiet && !flags.json) {
      say(
        `apb: ${environment.id} ${summary.agent}: ${summary.tasks} task(s): ${summary.rewardOne} reward 1.0, ${summary.rewardZero} reward 0${unjudged}; final database as expected in ${summary.databaseMatches}; ${summary.toolErrors} tool error(s); ${summary.executionsFile}`,
      );
      say(`apb: report: ${path.join(flags.out, 'report.html')} (or: npx apb view ${flags.out})`);
    }
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}

/** The model-agent branch: `--mode … --model …`. */
async function modelBranch(flags: ExecFlags, outcome: CommandOutcome): Promise<void> {
  if (!flags.mode)
    throw new UsageError(
      'apb exec needs --agent replay:FILE|replay:gold, or --mode direct|plan-first|refine with --model SPEC',
    );
  if (flags.dumpDb) throw new UsageError('--dump-db goes with --agent replay:…');
  if (flags.subset && flags.tasks) throw new UsageError('--subset and --tasks exclude each other');
  const subset = flags.subset ? readTaskSubset(flags.subset) : null;
  const selections = commaList(flags.env).map((id) => {
    const environment = loadEnvironment(id);
    const tasks = selectTasks(
      environment,
      {
        taskIds: subset ? subsetIdsFor(subset, flags.subset!, id) : (flags.tasks ?? null),
        split: splitOf(environment, subset ? 'all' : flags.taskSplit),
        limit: flags.limit ?? null,
      },
      null,
    );
    if (tasks.length === 0) throw new UsageError(`no task of ${environment.id} is selected`);
    return { environment, tasks };
  });
  const { environment, tasks } = selections[0]!;
  const outDir = path.resolve(
    flags.out ??
      path.join(
        'runs',
        `exec-${flags.env.replace(/[^A-Za-z0-9._-]+/g, '-')}-${(flags.model ?? 'model').replace(/[^A-Za-z0-9._-]+/g, '-')}`,
      ),
  );
  if (selections.length > 1)
    return runModelExecEnvs(selections, outDir, modelFlags(flags), outcome);
  await runModelExec(environment, tasks, outDir, modelFlags(flags), outcome);
}

/** The model path's flags with their defaults filled. */
function modelFlags(flags: ExecFlags): ModelExecFlags {
  return {
    ...(flags as ModelExecFlags),
    mode: flags.mode!,
    metric: flags.metric !== false,
    trials: flags.trials ?? EXEC_DEFAULTS.trials,
    maxSteps: flags.maxSteps ?? EXEC_DEFAULTS.maxSteps,
    concurrency: flags.concurrency ?? EXEC_DEFAULTS.concurrency,
    dryRun: flags.dryRun === true,
    comparePaper: flags.comparePaper === true,
    retryErrors: flags.retryErrors === true,
    quiet: flags.quiet === true,
    json: flags.json === true,
  };
}
