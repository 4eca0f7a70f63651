/** Pieces several run files share: token usage, a recorded call error, usage totals, finish reasons. */
import { z } from 'zod';

const Count = z.number().int().nonnegative();

/** One call's token usage (the `Usage` of `providers/provider.ts`). */
export const UsageSchema = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  reasoningTokens: z.number().nonnegative().optional(),
  cachedInputTokens: z.number().nonnegative().optional(),
});

/** Why a model stopped (`FinishReason` of `providers/provider.ts`). */
export const FinishReasonSchema = z.enum([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
  'unknown',
]);

/** A failed call as recorded (its message redacted where it was made). */
export const CallErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  status: z.number().int().optional(),
});

/** Usage totals of one role in a manifest. */
export const UsageTotalsSchema = z.object({
  calls: Count,
  cached_calls: Count,
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  cost_usd: z.number().nullable(),
});

/** One endpoint or a balanced fleet of them (`--base-url` given several times). */
export const BaseUrlSchema = z.union([z.string(), z.array(z.string())]).nullable();

/** Sampling options as recorded (`SamplingParams` of `providers/provider.ts`). */
export const SamplingSchema = z.object({
  temperature: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  seed: z.number().optional(),
  // The provider contract's REASONING_EFFORTS (a leaf cannot import it; a test keeps them equal).
  reasoningEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  thinkingBudget: z.number().optional(),
  /** Vendor options passed through as data, keyed by vendor. */
  providerOptions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});

/** A run's status, shared by `manifest.json` and `exec-manifest.json`. */
export const RunStatusSchema = z.enum([
  'running',
  'complete',
  'interrupted',
  'stopped-budget',
  'failed',
]);

/** The `--max-cost` budget of the latest invocation. */
export const BudgetSchema = z.object({
  max_cost_usd: z.number(),
  spent_usd: z.number(),
  refused_calls: Count,
  stopped: z.boolean(),
  /** Calls whose reported usage was impossible or implausible (counted at apb's estimate). */
  implausible_usage_calls: Count.optional(),
});

/** An integer counter. */
export const CountSchema = Count;
