/**
 * `apb exec --mode direct|plan-first|refine[,…] --model SPEC …`: the model agent path of `apb exec` — the user
 * simulator, the planner and critic, the judge of plans and NL assertions — wired to `runExec`, then the scores
 * and reports. The replay path (`--agent replay:…`) is the command's other branch.
 */
import { judgeSamplingOf, modelFlagsOf } from './model-flags.js';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { Environment, EnvironmentSession, ExecTask } from '../execution/environment.js';
import {
  checkExecIdentity,
  writeExecManifest,
  type ExecIdentity,
} from '../execution/exec-manifest.js';
import { runExec, type Evaluate } from '../execution/exec-run.js';
import type { ExecutionLine } from '../execution/records.js';
import { AGENT_PROMPT_VERSION } from '../execution/agent.js';
import { dropInfrastructureErrors } from '../execution/exec-retry.js';
import { USER_PROMPT_VERSION } from '../execution/user-simulator.js';
import { DEFAULT_MAX_ERRORS } from '../execution/loop.js';
import { createNlAssertionJudge } from '../execution/nl-assertions.js';
import { writeFloor } from '../execution/floor.js';
import { computeReward } from '../execution/reward.js';
import { EXEC_MODES, type ExecMode } from '../metrics/executable.js';
import { Budget, costOfCall } from '../pipeline/budget.js';
import { acquireRunLock } from '../rundir/lock.js';
import type { SamplingParams } from '../providers/provider.js';
import { buildExecSummary } from '../report/exec-summary.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import { dryRunText } from './exec-dry-run.js';
import { createExecProgress } from './exec-progress.js';
import { handleInterrupts } from './interrupts.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { resolveJudge } from './resolve.js';
import { createRunProviders, defaultCacheDir, type RunProviders } from './run-providers.js';
import { printSummary, shown } from './summary-text.js';
import { say } from './terminal.js';

/** The flags of the model path. */
export interface ModelExecFlags {
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

/** The run's identity as `exec-manifest.json` records it (a resume with another one is refused). */
function identityOf(
  environment: Environment,
  ids: { agent: string; user: string; critic: string; judge: string; judgeVersion: string },
  flags: ModelExecFlags,
  sampling: { agent: SamplingParams; user: SamplingParams },
): ExecIdentity {
  return {
    env: environment.id,
    model: ids.agent,
    user_model: ids.user,
    critic: ids.critic,
    taxonomy: flags.metric,
    judge: ids.judge,
    max_steps: flags.maxSteps,
    max_errors: DEFAULT_MAX_ERRORS,
    prompt_versions: {
      agent: environment.promptVersions?.agent ?? AGENT_PROMPT_VERSION,
      user: environment.promptVersions?.user ?? USER_PROMPT_VERSION,
      judge: ids.judgeVersion,
    },
    sampling,
    ...(environment.clock ? { clock: environment.clock } : {}),
  };
}

/** Who plays and judges: the tested model (agent, planner, reviser), the user simulator, the critic, the judges, the reward. */
function playersOf(
  environment: Environment,
  flags: ModelExecFlags,
  providers: RunProviders,
  model: string,
  judgeSpec: string,
) {
  const baseUrl = flags.baseUrl ?? process.env.APB_BASE_URL ?? null;
  const agent = providers.provider(model, baseUrl);
  const judgeBaseUrl = flags.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null;
  // Default user simulator: the judge model when one is given (a model other than the tested one), else the tested model.
  const user = flags.userModel
    ? providers.provider(flags.userModel, flags.userBaseUrl ?? null)
    : judgeSpec !== 'rules' && !judgeSpec.startsWith('baseline:')
      ? providers.provider(judgeSpec, judgeBaseUrl)
      : agent;
  const critic = flags.critic
    ? providers.provider(flags.critic, flags.criticBaseUrl ?? null)
    : agent;
  const judgeSampling = judgeSamplingOf(flags as unknown as Record<string, unknown>);
  const judge = resolveJudge([judgeSpec], providers, {
    baseUrl: judgeBaseUrl,
    protocol: 'paper',
    blind: false,
    ...(judgeSampling ? { sampling: judgeSampling } : {}),
  });
  const nlJudge =
    judgeSpec === 'rules' || flags.nlJudge === false
      ? undefined
      : createNlAssertionJudge(providers.provider(judgeSpec, judgeBaseUrl));
  const tau2Reward: Evaluate = async ({ task, messages, termination, session }, signal) => {
    const result = await computeReward({
      environment,
      task: task as ExecTask,
      messages,
      termination,
      finalDatabase: (session as EnvironmentSession).database(),
      ...(nlJudge ? { nlJudge } : {}),
      ...(signal ? { signal } : {}),
    });
    return {
      reward: result.reward,
      reward_info: { ...result.reward_info },
      details: { ...result.details },
    };
  };
  const evaluate = (environment.evaluate as Evaluate | undefined) ?? tau2Reward;
  return {
    agent,
    user,
    planner: agent,
    critic,
    judge,
    evaluate,
    nlJudgeId: nlJudge ? judgeSpec : null,
  };
}

type Status = 'running' | 'complete' | 'interrupted' | 'stopped-budget' | 'failed';

/** Runs the model path of `apb exec` over the selected tasks into `outDir`. */
export async function runModelExec(
  environment: Environment,
  tasks: readonly ExecTask[],
  outDir: string,
  flags: ModelExecFlags,
  outcome: CommandOutcome,
): Promise<void> {
  const started = Date.now();
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
  const judgeSpec = flags.judge ?? 'rules';
  if (flags.dryRun)
    return void process.stdout.write(
      dryRunText(environment, tasks, modes, model, judgeSpec, flags),
    );
  const budget = flags.maxCost ? new Budget(flags.maxCost) : undefined;
  let retries = 0;
  const providers = createRunProviders({
    concurrency: flags.concurrency,
    timeoutMs: flags.timeoutMs,
    maxRetries: flags.maxRetries,
    cache: flags.cache,
    cacheDir: defaultCacheDir(process.env),
    ...(budget ? { budget } : {}),
    onRetry: () => (retries += 1),
  });
  const calls = () => ({
    retries,
    rateLimited: providers.endpointStats().reduce((sum, entry) => sum + entry.rate_limited, 0),
  });
  const lock = acquireRunLock(outDir, 'exec');
  const interrupts = handleInterrupts();
  try {
    const players = playersOf(environment, flags, providers, model, judgeSpec);
    const sampling: SamplingParams = modelFlagsOf(flags, '');
    const userSampling: SamplingParams = modelFlagsOf(flags, 'user-');
    const { agent, user, critic, judge } = players;
    if (!flags.quiet && !flags.json)
      say(
        `apb: user simulator ${user.id} (${flags.userModel ? '--user-model' : user === agent ? 'the tested model: no --judge or --user-model given' : 'the --judge model: no --user-model given'})`,
      );
    const identity = identityOf(
      environment,
      {
        agent: agent.id,
        user: user.id,
        critic: modes.includes('refine') ? critic.id : 'none',
        judge: judge.id,
        judgeVersion: judge.version,
      },
      flags,
      { agent: sampling, user: userSampling },
    );
    const previous = checkExecIdentity(outDir, identity);
    const startedAt = previous?.started_at ?? new Date().toISOString();
    const manifest = (
      status: Status,
      executions: { total: number; finished: number; already_done: number },
    ) =>
      writeExecManifest(outDir, {
        identity,
        modes: [...new Set([...(previous?.modes ?? []), ...modes])],
        trials: Math.max(previous?.trials ?? 0, flags.trials),
        tasks: tasks.length,
        started_at: startedAt,
        ended_at: status === 'running' ? null : new Date().toISOString(),
        status,
        executions,
        ...(budget ? { budget: budget.summary() } : {}),
        endpoints: providers.endpointStats(),
      });
    if (flags.retryErrors && previous) await retryErrors(outDir, flags);
    const planned = {
      total: tasks.length * flags.trials * modes.length,
      finished: 0,
      already_done: 0,
    };
    manifest('running', planned);
    const progress = createExecProgress({
      tty: Boolean(process.stderr.isTTY),
      quiet: Boolean(flags.quiet),
      calls,
    });
    const spec = {
      outDir,
      env: environment,
      tasks,
      modes,
      trials: flags.trials,
      concurrency: flags.concurrency,
      maxSteps: flags.maxSteps,
      maxErrors: DEFAULT_MAX_ERRORS,
      taxonomy: flags.metric,
      sampling: { agent: sampling, user: userSampling, planner: sampling },
    };
    const deps = {
      ...players,
      stop: interrupts.stop,
      signal: interrupts.cancel,
      ...(budget ? { halted: () => budget.exhausted } : {}),
      onStart: (event: { total: number; alreadyDone: number }) =>
        progress.start({ ...event, dir: shown(outDir), modes }),
      onExecution: (line: ExecutionLine) => progress.onExecution(line),
    };
    const summary = await runExec(spec, deps)
      .finally(() => progress.end())
      .catch((error: unknown) => {
        manifest('failed', planned);
        throw error;
      });
    const status: Status = budget?.exhausted
      ? 'stopped-budget'
      : summary.interrupted
        ? 'interrupted'
        : 'complete';
    manifest(status, {
      total: summary.total,
      finished: summary.finished,
      already_done: summary.alreadyDone,
    });
    // the do-nothing floor (no model call); tau2's only: ToolSandbox's is its UnhelpfulAgent replay
    if (environment.id.startsWith('tau2:')) await writeFloor(outDir, environment, tasks);
    const scores = await writeExecOutputs(outDir, costOfCall, {
      comparePaper: flags.comparePaper === true,
    });
    const { retries: retried, rateLimited } = calls();
    printSummary(
      { quiet: Boolean(flags.quiet), json: Boolean(flags.json) },
      buildExecSummary(scores, {
        command: 'exec',
        wallMs: Date.now() - started,
        dir: shown(outDir),
        env: environment.id,
        model: agent.id,
        judge: judge.id,
        status,
        retries: retried,
        rateLimited: providers.endpointStats().length > 0 ? rateLimited : null,
        reportHtml: shown(path.join(outDir, 'report.html')),
        reportMd: shown(path.join(outDir, 'report.md')),
        viewCommand: `npx apb view ${shown(outDir)}`,
      }),
    );
    if (budget?.exhausted)
      say(
        `apb: stopped by --max-cost ${flags.maxCost} USD after spending about ${budget.summary().spent_usd.toFixed(4)} USD; ${summary.total - summary.alreadyDone - summary.finished} execution(s) not run (rerun with a higher --max-cost to resume them)`,
      );
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
    providers.close();
    lock.release();
  }
}

/** `--retry-errors`: what infrastructure errors left is taken out of the directory, so this run makes it again. */
async function retryErrors(outDir: string, flags: Pick<ModelExecFlags, 'quiet'>): Promise<void> {
  const dropped = await dropInfrastructureErrors(
    path.join(outDir, 'plans.jsonl'),
    path.join(outDir, 'executions.jsonl'),
  );
  if (!flags.quiet && dropped.executions + dropped.openings > 0)
    say(
      `apb: --retry-errors: ${dropped.executions} execution(s) and ${dropped.openings} opening(s) left by infrastructure errors are made again`,
    );
}
