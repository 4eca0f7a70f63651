/** `apb serve`: the OpenAI-compatible planning endpoint on 127.0.0.1 (direct, plan-first or refine), until Ctrl-C. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { draftPlan, refinePlan, type PlanningContext } from '../../execution/plans.js';
import {
  REASONING_EFFORTS,
  type Provider,
  type ReasoningEffort,
  type SamplingParams,
} from '../../providers/provider.js';
import { redact } from '../../redact.js';
import { Budget, costOfCall } from '../../pipeline/budget.js';
import type { UsageTotals } from '../../pipeline/manifest.js';
import { usd } from '../../report/numbers.js';
import { roleText } from '../summary-text.js';
import { RoleUsage } from '../../serve/usage.js';
import { openPlanLog, type PlanLog } from '../../serve/plan-log.js';
import { withoutDefaults } from '../../providers/model-options.js';
import { registerSecret } from '../../redact.js';
import { startServe, type ServeMode, type ServeOptions } from '../../serve/server.js';
import { untilStopped } from '../interrupts.js';
import {
  choice,
  nonNegativeInt,
  port,
  positiveInt,
  positiveNumber,
  temperature,
} from '../options.js';
import type { CommandOutcome } from '../outcome.js';
import { createRunProviders, defaultCacheDir } from '../run-providers.js';
import { say } from '../terminal.js';

const MODES: readonly ServeMode[] = ['direct', 'plan-first', 'refine'];

interface ServeFlags {
  mode: string;
  model?: string;
  baseUrl?: string;
  critic?: string;
  criticBaseUrl?: string;
  metric: boolean;
  port: number;
  out?: string;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  temperature?: number;
  maxCost?: number;
  host?: string;
  apiKey?: string;
  reasoningEffort?: ReasoningEffort;
  thinkingBudget?: number;
  seed?: number;
  maxTokens?: number;
  planRoles: string;
}

/** Usage by role, as the end-of-run summaries print it. */
function usageText(roles: Record<string, UsageTotals>): string {
  const entries = Object.entries(roles).map(([role, totals]) => roleText({ role, ...totals }));
  return entries.length > 0 ? `usage: ${entries.join(' · ')}` : 'no model calls';
}

/** The model stacks: forwarding (as the client asked), planning and critique, one budget and usage by role. */
function modelStacks(flags: ServeFlags, model: string) {
  const budget = flags.maxCost ? new Budget(flags.maxCost) : undefined;
  const providers = createRunProviders({
    concurrency: flags.concurrency,
    timeoutMs: flags.timeoutMs,
    maxRetries: flags.maxRetries,
    cache: flags.cache,
    cacheDir: defaultCacheDir(process.env),
    // A server answers for hours: early upstream failures must not refuse every later request.
    failureWatch: false,
    ...(budget ? { budget } : {}),
  });
  const baseUrl = flags.baseUrl ?? process.env.APB_BASE_URL ?? null;
  const usage = new RoleUsage(costOfCall);
  // Forwarded as the client asked: no defaults added, no retries (the client retries), no failure watch.
  const forward = usage.wrap(
    providers.provider(model, baseUrl, {
      cache: false,
      maxRetries: 0,
      failureWatch: false,
      modelDefaults: withoutDefaults(),
    }),
  );
  const planner = usage.wrap(providers.provider(model, baseUrl));
  const critic = flags.critic
    ? usage.wrap(providers.provider(flags.critic, flags.criticBaseUrl ?? null))
    : planner;
  return { budget, providers, usage, forward, planner, critic };
}

/** A conversation's plan: the draft (plan-first) or the draft refined (refine). */
function planMaker(
  mode: ServeMode,
  taxonomy: boolean,
  calls: { planner: Provider; critic: Provider; sampling: SamplingParams },
) {
  const { planner, critic, sampling } = calls;
  return async (context: PlanningContext, signal: AbortSignal) => {
    const draft = await draftPlan(planner, context, { sampling, repeat: 0, signal });
    return mode === 'refine'
      ? refinePlan(draft, context, {
          reviser: planner,
          critic,
          taxonomy,
          sampling,
          repeat: 0,
          signal,
        })
      : draft;
  };
}

/** The planning calls' own options; forwarded requests carry only the client's. */
function planningSampling(flags: ServeFlags): SamplingParams {
  return {
    ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
    ...(flags.reasoningEffort ? { reasoningEffort: flags.reasoningEffort } : {}),
    ...(flags.thinkingBudget !== undefined ? { thinkingBudget: flags.thinkingBudget } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.maxTokens !== undefined ? { maxOutputTokens: flags.maxTokens } : {}),
  };
}

/** The key clients must send and the address to listen on; a non-loopback address needs a key. */
function accessOf(flags: ServeFlags): { apiKey: string | undefined; host: string } {
  const apiKey = flags.apiKey ?? process.env.APB_SERVE_API_KEY;
  registerSecret(apiKey);
  const host = flags.host ?? '127.0.0.1';
  if (!/^(127\.0\.0\.1|localhost|::1)$/.test(host) && !apiKey)
    throw new UsageError(`--host ${host} is not a loopback address: give --api-key KEY too`);
  return { apiKey, host };
}

/** Says each new conversation's plan and appends it to the plan log (a failed write is a warning, not a 500). */
function planRecorder(log: PlanLog | null, mode: ServeMode, model: string) {
  return ({ conversation, context, plan }: Parameters<NonNullable<ServeOptions['onPlan']>>[0]) => {
    say(`apb serve: new conversation ${conversation}: plan ${plan.status}`);
    const at = new Date().toISOString();
    try {
      log?.append(
        redact(JSON.stringify({ conversation, mode, model, at, request: context.request, plan })),
      );
    } catch (error) {
      say(`apb serve: warning: could not record the plan in ${log?.file}: ${String(error)}`);
    }
  };
}

function modeOf(value: string): ServeMode {
  const mode = MODES.find((known) => known === value);
  if (!mode) throw new UsageError(`--mode must be one of ${MODES.join(', ')} (got "${value}")`);
  return mode;
}

/** The flags of `apb serve` (after `--mode`). */
function withServeFlags(command: Command): Command {
  return command
    .option(
      '--model <spec>',
      'the tested model: plans and every forwarded request (PROVIDER:MODEL)',
    )
    .option('--base-url <url>', 'endpoint of the tested model')
    .option('--critic <spec>', 'refine: who critiques the draft (default: the tested model itself)')
    .option('--critic-base-url <url>', 'endpoint of the critic')
    .option('--metric', "refine: critique with APB's E1–E6 taxonomy (default)", true)
    .option('--no-metric', 'refine: a general critique without the taxonomy')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free port, printed)', port, 0)
    .option(
      '--host <name>',
      'listen on this address and accept it as the Host (default 127.0.0.1; not loopback: needs --api-key)',
    )
    .option(
      '--api-key <key>',
      'clients must send this key (Bearer or x-api-key; or $APB_SERVE_API_KEY)',
    )
    .option(
      '--plan-roles <roles>',
      'roles whose conversations are planned (a request names its role with an X-APB-Role header or a MODEL@ROLE name); others are forwarded',
      'agent',
    )
    .option('--out <dir>', "append every conversation's plan to DIR/serve-plans.jsonl")
    .option('--concurrency <n>', 'requests in flight to the model at once', positiveInt, 8)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, 300_000)
    .option('--max-retries <n>', 'retries of a retryable failure', nonNegativeInt, 4)
    .option('--no-cache', 'do not cache the planning calls (forwarded requests are never cached)')
    .option('--temperature <t>', 'sampling temperature of the planning calls', temperature)
    .option(
      '--reasoning-effort <effort>',
      `reasoning effort of the planning calls (${REASONING_EFFORTS.join(', ')})`,
      choice(REASONING_EFFORTS),
    )
    .option('--thinking-budget <n>', 'thinking-token budget of the planning calls', nonNegativeInt)
    .option('--seed <n>', 'seed of the planning calls', nonNegativeInt)
    .option('--max-tokens <n>', 'most output tokens of a planning call', positiveInt)
    .option(
      '--max-cost <usd>',
      'refuse new calls (429 insufficient_quota) once this much would be spent, planning and forwarded calls together',
      positiveNumber,
    );
}

/** Registers `apb serve`. */
export function registerServeCommand(program: Command, outcome: CommandOutcome): void {
  const command = program
    .command('serve')
    .description(
      'OpenAI-compatible chat-completions endpoint on 127.0.0.1 that puts a plan (or a refined plan) in front of each new conversation',
    )
    .requiredOption(
      '--mode <mode>',
      "direct (forward only), plan-first (draft plan) or refine (draft plan refined with APB's critique)",
    );
  withServeFlags(command).action(async (flags: ServeFlags) => {
    const mode = modeOf(flags.mode);
    const model = flags.model ?? process.env.APB_MODEL;
    if (!model) throw new UsageError('apb serve needs --model PROVIDER:MODEL (the tested model)');
    if (model.startsWith('baseline:') || model === 'rules')
      throw new UsageError(`--model ${model} is not a model: apb serve forwards to a provider`);
    if (flags.critic && mode !== 'refine')
      throw new UsageError('--critic applies to --mode refine only');
    const { budget, providers, usage, forward, planner, critic } = modelStacks(flags, model);
    const { apiKey, host } = accessOf(flags);
    const sampling = planningSampling(flags);
    const log = flags.out ? openPlanLog(flags.out) : null;
    const makePlan = planMaker(mode, flags.metric, { planner, critic, sampling });
    const server = await startServe({
      mode,
      forward,
      ...(mode === 'direct' ? {} : { makePlan }),
      port: flags.port,
      host,
      ...(apiKey ? { apiKey } : {}),
      planRoles: flags.planRoles.split(',').map((role) => role.trim().toLowerCase()),
      ...(log ? { beforePlan: () => log.checkSpace() } : {}),
      accounting: () => ({ usage: usage.totals(), budget: budget?.summary() ?? null }),
      onPlan: planRecorder(log, mode, model),
    });
    process.stdout.write(`${server.baseUrl}\n`);
    say(
      `apb serve: ${mode} for ${model} at ${server.baseUrl} (POST /chat/completions, /responses, /messages); press Ctrl-C to stop`,
    );
    await untilStopped();
    const stats = server.stats();
    await server.close();
    log?.close();
    providers.close();
    say(
      `apb serve: stopped after ${stats.requests} request(s) in ${stats.plans} planned conversation(s); ${usageText(stats.usage ?? {})}${budget ? `; --max-cost ${flags.maxCost} USD: spent about ${usd(budget.summary().spent_usd)}, ${stats.refused_budget} request(s) refused` : ''}`,
    );
    outcome.exitCode = 0;
  });
}
