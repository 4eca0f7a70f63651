/**
 * `apb exec --mode direct|plan-first|refine[,…] --model SPEC …`: the model agent path of `apb exec` — the user
 * simulator, the planner and critic, the judge of plans and NL assertions — wired to `runExec`, then the scores
 * and reports. The replay path (`--agent replay:…`) is the command's other branch.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { Environment, EnvironmentSession, ExecTask } from '../execution/environment.js';
import { checkExecIdentity, writeExecManifest, type ExecIdentity } from '../execution/exec-manifest.js';
import { runExec, type Evaluate } from '../execution/exec-run.js';
import { AGENT_PROMPT_VERSION, agentSystemText } from '../execution/agent.js';
import { USER_PROMPT_VERSION } from '../execution/user-simulator.js';
import { DEFAULT_MAX_ERRORS } from '../execution/loop.js';
import { createNlAssertionJudge } from '../execution/nl-assertions.js';
import { computeReward } from '../execution/reward.js';
import { EXEC_MODES, type ExecMode } from '../metrics/executable.js';
import { draftPlanPrompt } from '../execution/plans.js';
import { estimateInputTokens } from '../providers/estimate.js';
import { Budget, costOfCall, estimatedCost, priceOfSpec } from '../pipeline/budget.js';
import { acquireRunLock } from '../pipeline/run-lock.js';
import type { SamplingParams } from '../providers/provider.js';
import { writeExecOutputs } from '../report/write-exec-reports.js';
import { handleInterrupts } from './interrupts.js';
import { EXIT, type CommandOutcome } from './outcome.js';
import { resolveJudge } from './resolve.js';
import { createRunProviders, defaultCacheDir } from './run-providers.js';
import { say } from './terminal.js';

/** The flags of the model path. */
export interface ModelExecFlags {
  mode: string;
  model?: string;
  baseUrl?: string;
  userModel?: string;
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
}

/** `direct,plan-first` → the modes, in the paper's order; an unknown one is a usage error naming the known ones. */
export function parseModes(value: string): ExecMode[] {
  const asked = value.split(',').map((item) => item.trim()).filter(Boolean);
  for (const mode of asked) if (!(EXEC_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be one or more of ${EXEC_MODES.join(', ')} separated by commas (got "${mode}")`);
  if (asked.length === 0) throw new UsageError('--mode names no mode');
  return EXEC_MODES.filter((mode) => asked.includes(mode));
}

/** Runs the model path of `apb exec` over the selected tasks into `outDir`. */
export async function runModelExec(environment: Environment, tasks: readonly ExecTask[], outDir: string, flags: ModelExecFlags, outcome: CommandOutcome): Promise<void> {
  const modes = parseModes(flags.mode);
  const model = flags.model ?? process.env.APB_MODEL;
  if (!model) throw new UsageError('apb exec --mode … needs --model PROVIDER:MODEL (the tested model)');
  if (model.startsWith('baseline:') || model === 'rules') throw new UsageError(`--model ${model} cannot act as an agent: give a model (PROVIDER:MODEL), or --agent replay:FILE for a scripted one`);
  if (flags.critic && !modes.includes('refine')) throw new UsageError('--critic applies to --mode refine only');
  const judgeSpec = flags.judge ?? 'rules';
  const calls = tasks.length * flags.trials * modes.length;
  if (flags.dryRun) {
    process.stdout.write(dryRunText(environment, tasks, modes, model, judgeSpec, flags));
    return;
  }
  const budget = flags.maxCost ? new Budget(flags.maxCost) : undefined;
  const providers = createRunProviders({ concurrency: flags.concurrency, timeoutMs: flags.timeoutMs, maxRetries: flags.maxRetries, cache: flags.cache, cacheDir: defaultCacheDir(process.env), ...(budget ? { budget } : {}) });
  const lock = acquireRunLock(outDir, 'exec');
  const interrupts = handleInterrupts();
  try {
    const baseUrl = flags.baseUrl ?? process.env.APB_BASE_URL ?? null;
    const agent = providers.provider(model, baseUrl);
    const user = flags.userModel ? providers.provider(flags.userModel, flags.userBaseUrl ?? null) : agent;
    const critic = flags.critic ? providers.provider(flags.critic, flags.criticBaseUrl ?? null) : agent;
    const judgeBaseUrl = flags.judgeBaseUrl ?? process.env.APB_JUDGE_BASE_URL ?? null;
    const judge = resolveJudge([judgeSpec], providers, { baseUrl: judgeBaseUrl, protocol: 'paper', blind: false });
    const nlJudge = judgeSpec === 'rules' ? undefined : createNlAssertionJudge(providers.provider(judgeSpec, judgeBaseUrl));
    const evaluate: Evaluate = async ({ task, messages, termination, session }, signal) => {
      const result = await computeReward({ environment, task: task as ExecTask, messages, termination, finalDatabase: (session as EnvironmentSession).database(), ...(nlJudge ? { nlJudge } : {}), ...(signal ? { signal } : {}) });
      return { reward: result.reward, reward_info: { ...result.reward_info }, details: { ...result.details } };
    };
    const sampling: SamplingParams = flags.temperature !== undefined ? { temperature: flags.temperature } : {};
    const userSampling: SamplingParams = flags.userTemperature !== undefined ? { temperature: flags.userTemperature } : {};
    const identity: ExecIdentity = {
      env: environment.id,
      model: agent.id,
      user_model: user.id,
      critic: modes.includes('refine') ? critic.id : 'none',
      taxonomy: flags.metric,
      judge: judge.id,
      max_steps: flags.maxSteps,
      max_errors: DEFAULT_MAX_ERRORS,
      prompt_versions: { agent: AGENT_PROMPT_VERSION, user: USER_PROMPT_VERSION, judge: judge.version },
      sampling: { agent: sampling, user: userSampling },
    };
    const previous = checkExecIdentity(outDir, identity);
    const startedAt = previous?.started_at ?? new Date().toISOString();
    const manifest = (status: 'running' | 'complete' | 'interrupted' | 'stopped-budget' | 'failed', executions: { total: number; finished: number; already_done: number }) =>
      writeExecManifest(outDir, { identity, modes: [...new Set([...(previous?.modes ?? []), ...modes])], trials: Math.max(previous?.trials ?? 0, flags.trials), tasks: tasks.length, started_at: startedAt, ended_at: status === 'running' ? null : new Date().toISOString(), status, executions });
    manifest('running', { total: calls, finished: 0, already_done: 0 });
    let done = 0;
    const summary = await runExec(
      { outDir, env: environment, tasks, modes, trials: flags.trials, concurrency: flags.concurrency, maxSteps: flags.maxSteps, maxErrors: 10, taxonomy: flags.metric, sampling: { agent: sampling, user: userSampling, planner: sampling } },
      {
        agent,
        user,
        planner: agent,
        critic,
        judge,
        evaluate,
        nlJudgeId: nlJudge ? judgeSpec : null,
        stop: interrupts.stop,
        signal: interrupts.cancel,
        ...(budget ? { halted: () => budget.exhausted } : {}),
        onExecution: (line) => {
          done += 1;
          say(`apb exec: [${done}] task ${line.task_id} ${line.mode} trial ${line.trial}: reward ${line.reward ?? 'not evaluated'} (${line.termination})`);
        },
      },
    );
    const status = budget?.exhausted ? 'stopped-budget' : summary.interrupted ? 'interrupted' : 'complete';
    manifest(status, { total: summary.total, finished: summary.finished, already_done: summary.alreadyDone });
    const scores = await writeExecOutputs(outDir, costOfCall, { comparePaper: flags.comparePaper === true });
    for (const row of scores.tables.table3) say(`apb exec: ${row.env} ${row.model}: direct ${row.direct ?? '–'}, plan-first ${row.plan_first ?? '–'}, refine ${row.refine ?? '–'}; APB CR ${row.apb_cr_before ?? '–'} → ${row.apb_cr_after ?? '–'} over ${row.n} task(s)`);
    say(`apb exec: ${summary.finished} execution(s) run, ${summary.alreadyDone} already done; ${path.join(outDir, 'exec-scores.json')}`);
    if (budget?.exhausted) say(`apb: stopped by --max-cost ${flags.maxCost} USD; rerun with a higher --max-cost to resume the rest`);
    outcome.exitCode = summary.interrupted ? EXIT.interrupted : EXIT.ok;
  } finally {
    interrupts.dispose();
    providers.close();
    lock.release();
  }
}

/**
 * What `--dry-run` prints: the conversations and planning calls the run would make, and the tokens every agent
 * and planning call carries before the conversation adds to it (system text, policy, tools; APB's planner
 * prompt). How long each conversation runs is up to the models, so its total cannot be known in advance.
 */
export function dryRunText(environment: Environment, tasks: readonly ExecTask[], modes: readonly ExecMode[], model: string, judgeSpec: string, flags: Pick<ModelExecFlags, 'trials' | 'maxSteps'>): string {
  const conversations = tasks.length * flags.trials * modes.length;
  const openings = tasks.length * flags.trials;
  const agentFixed = estimateInputTokens([{ role: 'system', parts: [{ type: 'text', text: agentSystemText(environment.policy, null) }] }], environment.tools);
  const plannerFixed = estimateInputTokens(draftPlanPrompt({ policy: environment.policy, request: '', tools: environment.tools }).messages);
  const price = priceOfSpec(model);
  const perCall = (tokens: number) => (price && price !== 'free' ? ` (≈ ${estimatedCost(price, tokens, 0).toFixed(4)} USD of input each)` : '');
  const plans = modes.some((mode) => mode !== 'direct') ? `${openings} draft plan(s)${modes.includes('refine') ? `, ${openings} critique(s) and ${openings} revision(s)` : ''}, judged by ${judgeSpec}` : 'no plans';
  return [
    `apb exec --dry-run: ${environment.id}, ${tasks.length} task(s) × ${flags.trials} trial(s) × ${modes.length} mode(s) = ${conversations} conversation(s) with ${model}, plus ${openings} opening user message(s); ${plans}.`,
    `Every agent call carries at least ${agentFixed} input tokens (instructions, policy, tools)${perCall(agentFixed)}; every draft-plan call at least ${plannerFixed}${perCall(plannerFixed)}.`,
    `How many calls a conversation takes depends on the models (at most --max-steps ${flags.maxSteps} steps). Nothing was called or written.`,
    '',
  ].join('\n');
}
