/** `apb serve`: the OpenAI-compatible planning endpoint on 127.0.0.1 (direct, plan-first or refine), until Ctrl-C. */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { draftPlan, refinePlan, type PlanningContext } from '../../execution/plans.js';
import type { SamplingParams } from '../../providers/provider.js';
import { redact } from '../../redact.js';
import { Budget, costOfCall } from '../../pipeline/budget.js';
import type { UsageTotals } from '../../pipeline/manifest.js';
import { usd } from '../../report/numbers.js';
import { roleText } from '../summary-text.js';
import { RoleUsage } from '../../serve/usage.js';
import { startServe, type ServeMode } from '../../serve/server.js';
import { untilStopped } from '../interrupts.js';
import { nonNegativeInt, port, positiveInt, positiveNumber, temperature } from '../options.js';
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
}

/** Usage by role, as the end-of-run summaries print it. */
function usageText(roles: Record<string, UsageTotals>): string {
  const entries = Object.entries(roles).map(([role, totals]) => roleText({ role, ...totals }));
  return entries.length > 0 ? `usage: ${entries.join(' · ')}` : 'no model calls';
}

function modeOf(value: string): ServeMode {
  const mode = MODES.find((known) => known === value);
  if (!mode) throw new UsageError(`--mode must be one of ${MODES.join(', ')} (got "${value}")`);
  return mode;
}

/** Registers `apb serve`. */
export function registerServeCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('serve')
    .description(
      'OpenAI-compatible chat-completions endpoint on 127.0.0.1 that puts a plan (or a refined plan) in front of each new conversation',
    )
    .requiredOption(
      '--mode <mode>',
      "direct (forward only), plan-first (draft plan) or refine (draft plan refined with APB's critique)",
    )
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
    .option('--out <dir>', "append every conversation's plan to DIR/serve-plans.jsonl")
    .option('--concurrency <n>', 'requests in flight to the model at once', positiveInt, 8)
    .option('--timeout-ms <n>', 'per-request timeout', positiveInt, 300_000)
    .option('--max-retries <n>', 'retries of a retryable failure', nonNegativeInt, 4)
    .option('--no-cache', 'do not cache the planning calls (forwarded requests are never cached)')
    .option('--temperature <t>', 'sampling temperature of the planning calls', temperature)
    .option(
      '--max-cost <usd>',
      'refuse new calls (429 insufficient_quota) once this much would be spent, planning and forwarded calls together',
      positiveNumber,
    )
    .action(async (flags: ServeFlags) => {
      const mode = modeOf(flags.mode);
      const model = flags.model ?? process.env.APB_MODEL;
      if (!model) throw new UsageError('apb serve needs --model PROVIDER:MODEL (the tested model)');
      if (model.startsWith('baseline:') || model === 'rules')
        throw new UsageError(`--model ${model} is not a model: apb serve forwards to a provider`);
      if (flags.critic && mode !== 'refine')
        throw new UsageError('--critic applies to --mode refine only');
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
      const forward = usage.wrap(providers.provider(model, baseUrl, { cache: false }));
      const planner = usage.wrap(providers.provider(model, baseUrl));
      const critic = flags.critic
        ? usage.wrap(providers.provider(flags.critic, flags.criticBaseUrl ?? null))
        : planner;
      const sampling: SamplingParams =
        flags.temperature !== undefined ? { temperature: flags.temperature } : {};
      const log = flags.out ? path.join(path.resolve(flags.out), 'serve-plans.jsonl') : null;
      if (log) mkdirSync(path.dirname(log), { recursive: true });
      const makePlan = async (context: PlanningContext, signal: AbortSignal) => {
        const draft = await draftPlan(planner, context, { sampling, repeat: 0, signal });
        return mode === 'refine'
          ? refinePlan(draft, context, {
              reviser: planner,
              critic,
              taxonomy: flags.metric,
              sampling,
              repeat: 0,
              signal,
            })
          : draft;
      };
      const server = await startServe({
        mode,
        forward,
        ...(mode === 'direct' ? {} : { makePlan }),
        port: flags.port,
        accounting: () => ({ usage: usage.totals(), budget: budget?.summary() ?? null }),
        onPlan: ({ conversation, context, plan }) => {
          say(`apb serve: new conversation ${conversation}: plan ${plan.status}`);
          if (log)
            appendFileSync(
              log,
              `${redact(JSON.stringify({ conversation, mode, model, at: new Date().toISOString(), request: context.request, plan }))}\n`,
            );
        },
      });
      process.stdout.write(`${server.baseUrl}\n`);
      say(
        `apb serve: ${mode} for ${model} at ${server.baseUrl} (POST /chat/completions); press Ctrl-C to stop`,
      );
      await untilStopped();
      const stats = server.stats();
      await server.close();
      providers.close();
      say(
        `apb serve: stopped after ${stats.requests} request(s) in ${stats.plans} planned conversation(s); ${usageText(stats.usage ?? {})}${budget ? `; --max-cost ${flags.maxCost} USD: spent about ${usd(budget.summary().spent_usd)}, ${stats.refused_budget} request(s) refused` : ''}`,
      );
      outcome.exitCode = 0;
    });
}
