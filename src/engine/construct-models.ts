/**
 * The model side of `apb construct`: `--llm SPEC` built on the run engine (limiter pool, response
 * cache, retries, `--max-cost` budget), and the `--dry-run` stand-in that records every prompt a
 * step would send, to estimate calls, tokens and cost without calling anything.
 */
import {
  CONSTRUCT_MAX_OUTPUT_TOKENS,
  promptMessages,
  providerModel,
  type ConstructionModel,
  type ModelUsage,
} from '../construction/model.js';
import { UsageError } from '../errors.js';
import { Budget, BudgetExceededError, estimatedCost, priceOfSpec } from '../pipeline/budget.js';
import { estimateInputTokens } from '../providers/estimate.js';
import { createRunProviders, type EngineOptions, type RunProviders } from './providers.js';

/**
 * The engine knobs of `apb construct`: the shared ones (`limits` comes from the step's or
 * pipeline's spec), plus the model's endpoint, the budget and the dry run.
 */
export type ConstructEngineOptions = Pick<
  EngineOptions,
  'concurrency' | 'rpm' | 'tpm' | 'timeoutMs' | 'maxRetries' | 'cache' | 'cacheDir' | 'limits'
> & {
  llmBaseUrl?: string;
  maxCost?: number;
  dryRun: boolean;
};

/** What a dry run recorded for one model. */
export interface DryRunTally {
  spec: string;
  calls: number;
  inputTokens: number;
}

/** The models of one `apb construct` command: built once per spec, closed at the end. */
export interface ConstructModels {
  modelFor(spec: string | null): ConstructionModel | undefined;
  usage(): Array<{ spec: string; usage: ModelUsage }>;
  dryRun(): DryRunTally[];
  close(): void;
}

function recordingModel(spec: string, tally: DryRunTally, concurrency: number): ConstructionModel {
  const usage: ModelUsage = { calls: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0 };
  return {
    id: spec,
    concurrency,
    usage,
    async ask(prompt) {
      tally.calls += 1;
      tally.inputTokens += estimateInputTokens(promptMessages(prompt));
      return { ok: false, reason: 'dry run: nothing was called' };
    },
  };
}

/** Builds the command's models; `--max-cost` and the cache apply to all of them. */
export function createConstructModels(options: ConstructEngineOptions): ConstructModels {
  const models = new Map<string, ConstructionModel>();
  const tallies = new Map<string, DryRunTally>();
  let providers: RunProviders | null = null;
  const budget = options.maxCost ? new Budget(options.maxCost) : undefined;
  return {
    modelFor(spec) {
      if (!spec) return undefined;
      if (spec === 'rules' || spec.startsWith('baseline:'))
        throw new UsageError(`--llm needs a model (PROVIDER:MODEL), not "${spec}"`);
      let model = models.get(spec);
      if (model) return model;
      if (options.dryRun) {
        const tally = { spec, calls: 0, inputTokens: 0 };
        tallies.set(spec, tally);
        model = recordingModel(spec, tally, options.concurrency);
      } else {
        providers ??= createRunProviders({
          concurrency: options.concurrency,
          ...(options.rpm ? { rpm: options.rpm } : {}),
          ...(options.tpm ? { tpm: options.tpm } : {}),
          timeoutMs: options.timeoutMs,
          maxRetries: options.maxRetries,
          cache: options.cache,
          cacheDir: options.cacheDir,
          ...(budget ? { budget } : {}),
          ...(options.limits ? { limits: options.limits } : {}),
        });
        model = providerModel(providers.provider(spec, options.llmBaseUrl ?? null), {
          concurrency: options.concurrency,
          ...(options.limits ? { jsonDepth: options.limits.jsonDepth } : {}),
        });
      }
      models.set(spec, model);
      return model;
    },
    usage: () => [...models.values()].map((model) => ({ spec: model.id, usage: model.usage })),
    dryRun: () => [...tallies.values()],
    close: () => providers?.close(),
  };
}

/** The dry-run estimate as lines: calls, tokens and dollars per model (output at the call cap). */
export function formatConstructDryRun(tallies: readonly DryRunTally[]): string {
  if (tallies.length === 0)
    return 'apb construct --dry-run: no model would be called (every step here is deterministic)\n';
  const lines = tallies.map((tally) => {
    const price = priceOfSpec(tally.spec);
    const outputTokens = tally.calls * CONSTRUCT_MAX_OUTPUT_TOKENS;
    const cost =
      price === 'free' ? 0 : price ? estimatedCost(price, tally.inputTokens, outputTokens) : null;
    return `${tally.spec}: ${tally.calls} call(s), about ${tally.inputTokens} input tokens, at most ${outputTokens} output tokens, ${cost === null ? 'cost unknown (no price in data/prices.json)' : `at most about $${cost.toFixed(4)}`}`;
  });
  return `apb construct --dry-run (nothing called, nothing written; items after a model step are counted from its deterministic fallback):\n${lines.join('\n')}\n`;
}

/** A `--max-cost` stop, with what to do next: the cache already holds every reply paid for. */
export function withBudgetHint(error: unknown): unknown {
  if (!(error instanceof BudgetExceededError)) return error;
  return new BudgetExceededError(
    `${error.message}; nothing was written (every reply received so far is in the response cache: rerun with a higher --max-cost to continue without paying for them again)`,
  );
}
