/**
 * `apb serve` as a library function: the model stacks (forwarded calls as the client asked them,
 * planning and critique calls with the run's defaults, one budget, usage by role), the plan log
 * and the server (serve/server.ts), started on a loopback address until `close()`.
 */
import type { Limits } from '../limits.js';
import { draftPlan, refinePlan, type PlanningContext } from '../execution/plans.js';
import type { Provider, SamplingParams } from '../providers/provider.js';
import { Budget, costOfCall, type BudgetSummary } from '../pipeline/budget.js';
import { RoleUsage } from '../serve/usage.js';
import { openPlanLog, type PlanLog } from '../serve/plan-log.js';
import { withoutDefaults } from '../providers/model-options.js';
import { startServe, type ServeMode, type ServeOptions } from '../serve/server.js';
import { createRunProviders } from './providers.js';

/** What to serve: the mode, the models, the listening address and the engine knobs. */
export interface ServeSpec {
  mode: ServeMode;
  /** The tested model: plans and every forwarded request. */
  model: string;
  baseUrl: string | null;
  /** `refine`'s critic (default: the tested model). */
  critic?: string;
  criticBaseUrl?: string | null;
  /** E1–E6 taxonomy in refine's critique. */
  taxonomy: boolean;
  port: number;
  host: string;
  apiKey?: string;
  /** Roles whose conversations are planned; others are forwarded. */
  planRoles: string[];
  /** Folder of `serve-plans.jsonl`, or null for no plan log. */
  out: string | null;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  cache: boolean;
  cacheDir: string;
  /** The planning calls' own options; forwarded requests carry only the client's. */
  sampling: SamplingParams;
  maxCost?: number;
  /** The size caps (`APB_MAX_*` for the CLI): requests, replies, plans; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** A running server. */
export interface ServeHandle {
  baseUrl: string;
  /** Stops the server, closes the plan log and the providers; what it served. */
  close(): Promise<{
    stats: ReturnType<Awaited<ReturnType<typeof startServe>>['stats']>;
    budget: BudgetSummary | null;
  }>;
}

/** The model stacks: forwarding (as the client asked), planning and critique, one budget and usage by role. */
function modelStacks(spec: ServeSpec) {
  const budget = spec.maxCost ? new Budget(spec.maxCost) : undefined;
  const providers = createRunProviders({
    concurrency: spec.concurrency,
    timeoutMs: spec.timeoutMs,
    maxRetries: spec.maxRetries,
    cache: spec.cache,
    cacheDir: spec.cacheDir,
    // A server answers for hours: early upstream failures must not refuse every later request.
    failureWatch: false,
    ...(budget ? { budget } : {}),
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  const { model, baseUrl } = spec;
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
  const critic = spec.critic
    ? usage.wrap(providers.provider(spec.critic, spec.criticBaseUrl ?? null))
    : planner;
  return { budget, providers, usage, forward, planner, critic };
}

/** A conversation's plan: the draft (plan-first) or the draft refined (refine). */
function planMaker(
  mode: ServeMode,
  taxonomy: boolean,
  calls: { planner: Provider; critic: Provider; sampling: SamplingParams; jsonDepth: number },
) {
  const { planner, critic, sampling, jsonDepth } = calls;
  return async (context: PlanningContext, signal: AbortSignal) => {
    const draft = await draftPlan(planner, context, { sampling, repeat: 0, signal, jsonDepth });
    return mode === 'refine'
      ? refinePlan(draft, context, {
          reviser: planner,
          critic,
          taxonomy,
          sampling,
          repeat: 0,
          signal,
          jsonDepth,
        })
      : draft;
  };
}

/**
 * Says each new conversation's plan and appends it to the plan log, redacted (a failed write is a
 * warning, not a 500).
 */
function planRecorder(
  log: PlanLog | null,
  mode: ServeMode,
  model: string,
  say: (message: string) => void,
) {
  return ({ conversation, context, plan }: Parameters<NonNullable<ServeOptions['onPlan']>>[0]) => {
    say(`apb serve: new conversation ${conversation}: plan ${plan.status}`);
    const at = new Date().toISOString();
    try {
      log?.append({ conversation, mode, model, at, request: context.request, plan });
    } catch (error) {
      say(`apb serve: warning: could not record the plan in ${log?.file}: ${String(error)}`);
    }
  };
}

/**
 * Starts `apb serve`; `say` is told of each new conversation's plan, of a plan log that failed and
 * of a torn line cut from it.
 */
export async function startServing(
  spec: ServeSpec,
  say: (message: string) => void = () => {},
): Promise<ServeHandle> {
  // The --out folder stays locked while the server runs: a second server there is refused.
  const log = spec.out ? openPlanLog(spec.out) : null;
  if (log?.tornLineDropped)
    say(`apb serve: dropped a half-written line of ${log.file} left by an earlier crash`);
  let stacks: ReturnType<typeof modelStacks>;
  try {
    stacks = modelStacks(spec);
  } catch (error) {
    log?.close();
    throw error;
  }
  const { budget, providers, usage, forward, planner, critic } = stacks;
  const makePlan = planMaker(spec.mode, spec.taxonomy, {
    planner,
    critic,
    sampling: spec.sampling,
    jsonDepth: providers.limits.jsonDepth,
  });
  try {
    const server = await startServe({
      mode: spec.mode,
      forward,
      ...(spec.mode === 'direct' ? {} : { makePlan }),
      port: spec.port,
      host: spec.host,
      ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
      planRoles: spec.planRoles,
      jsonDepth: providers.limits.jsonDepth,
      ...(log ? { beforePlan: () => log.checkSpace() } : {}),
      accounting: () => ({ usage: usage.totals(), budget: budget?.summary() ?? null }),
      onPlan: planRecorder(log, spec.mode, spec.model, say),
    });
    return {
      baseUrl: server.baseUrl,
      async close() {
        const stats = server.stats();
        await server.close();
        log?.close();
        providers.close();
        return { stats, budget: budget?.summary() ?? null };
      },
    };
  } catch (error) {
    log?.close();
    providers.close();
    throw error;
  }
}
