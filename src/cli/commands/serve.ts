/** `apb serve`: the OpenAI-compatible planning endpoint on 127.0.0.1 (direct, plan-first or refine), until Ctrl-C. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { SERVE_DEFAULTS } from '../../defaults.js';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import {
  REASONING_EFFORTS,
  type ReasoningEffort,
  type SamplingParams,
} from '../../providers/provider.js';
import type { UsageTotals } from '../../pipeline/manifest.js';
import { usd } from '../../report/numbers.js';
import { roleText } from '../summary-text.js';
import { registerSecret } from '../../redact.js';
import type { ServeMode } from '../../serve/server.js';
import { defaultCacheDir } from '../../engine/providers.js';
import { startServing } from '../../engine/serve.js';
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
    .option(
      '--concurrency <n>',
      'requests in flight to the model at once',
      positiveInt,
      SERVE_DEFAULTS.concurrency,
    )
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, SERVE_DEFAULTS.timeoutMs)
    .option(
      '--max-retries <n>',
      'retries of a retryable failure',
      nonNegativeInt,
      SERVE_DEFAULTS.maxRetries,
    )
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
export function registerServeCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
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
    const { apiKey, host } = accessOf(flags);
    const server = await startServing(
      {
        mode,
        model,
        limits,
        baseUrl: flags.baseUrl ?? process.env.APB_BASE_URL ?? null,
        ...(flags.critic ? { critic: flags.critic } : {}),
        criticBaseUrl: flags.criticBaseUrl ?? null,
        taxonomy: flags.metric,
        port: flags.port,
        host,
        ...(apiKey ? { apiKey } : {}),
        planRoles: flags.planRoles.split(',').map((role) => role.trim().toLowerCase()),
        out: flags.out ?? null,
        concurrency: flags.concurrency,
        timeoutMs: flags.timeoutMs,
        maxRetries: flags.maxRetries,
        cache: flags.cache,
        cacheDir: defaultCacheDir(process.env),
        sampling: planningSampling(flags),
        ...(flags.maxCost ? { maxCost: flags.maxCost } : {}),
      },
      say,
    );
    process.stdout.write(`${server.baseUrl}\n`);
    say(
      `apb serve: ${mode} for ${model} at ${server.baseUrl} (POST /chat/completions, /responses, /messages); press Ctrl-C to stop`,
    );
    await untilStopped();
    const { stats, budget } = await server.close();
    say(
      `apb serve: stopped after ${stats.requests} request(s) in ${stats.plans} planned conversation(s); ${usageText(stats.usage ?? {})}${budget ? `; --max-cost ${flags.maxCost} USD: spent about ${usd(budget.spent_usd)}, ${stats.refused_budget} request(s) refused` : ''}`,
    );
    outcome.exitCode = 0;
  });
}
