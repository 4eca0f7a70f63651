/**
 * `RunSpec`: what the user asked for (flags, as strings and numbers), validated with zod. The
 * orchestrator receives a `ResolvedRun` built from it by the CLI (providers, judges, directories).
 */
import { ENGINE_DEFAULTS } from '../defaults.js';
import { z } from 'zod';
import { SPLITS, type SplitName } from '../dataset/case.js';
import { UsageError } from '../errors.js';
import { REASONING_EFFORTS } from '../providers/provider.js';

/** The prompt and judge protocols: the paper's, or the released runner's prompt shapes. */
export const PROTOCOLS = ['paper', 'official'] as const;

/** Options of one tested model; what an entry leaves out comes from the run-wide flags. */
export const ModelEntrySchema = z
  .object({
    spec: z.string().min(1),
    /** One endpoint, or several of the same model (balanced by load, `providers/endpoints.ts`). */
    baseUrl: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    seed: z.number().int().optional(),
    reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
    thinkingBudget: z.number().int().min(0).optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxRetries: z.number().int().min(0).max(20).optional(),
    /** Limits of this model's endpoint (shared with every other model and judge on it). */
    concurrency: z.number().int().positive().max(1024).optional(),
    rpm: z.number().positive().optional(),
    tpm: z.number().positive().optional(),
  })
  .strict();
/** One tested model of a run and its own options. */
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

export const RunSpecSchema = z.object({
  data: z.string().default('sample'),
  splits: z.string().default('all'),
  /** Tested models, in order; several make a leaderboard run (one run directory per model under `out`). */
  models: z
    .array(ModelEntrySchema)
    .min(1)
    .default([{ spec: 'baseline:heuristic' }]),
  baseUrl: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
  judges: z.array(z.string()).default(['rules']),
  judgeBaseUrl: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
  out: z.string().optional(),
  limit: z.number().int().positive().optional(),
  ids: z.array(z.string()).optional(),
  concurrency: z.number().int().positive().max(1024).default(ENGINE_DEFAULTS.concurrency),
  rpm: z.number().positive().optional(),
  tpm: z.number().positive().optional(),
  timeoutMs: z.number().int().positive().default(ENGINE_DEFAULTS.timeoutMs),
  maxRetries: z.number().int().min(0).max(20).default(ENGINE_DEFAULTS.maxRetries),
  cache: z.boolean().default(true),
  repeats: z.number().int().positive().max(100).default(1),
  protocol: z.enum(PROTOCOLS).default('paper'),
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).optional(),
  maxCost: z.number().positive().optional(),
  allowRefusal: z.boolean().default(false),
  skipInvalid: z.boolean().default(false),
  retryErrors: z.boolean().default(false),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** Run-wide planner options a model entry leaves out (`--seed`, `--reasoning-effort`, `--thinking-budget`). */
  seed: z.number().int().optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
  thinkingBudget: z.number().int().min(0).optional(),
  /** Every LLM judge's options beyond its fixed temperature 0 (`--judge-max-tokens`, `--judge-seed`, …). */
  judgeSampling: z
    .object({
      maxTokens: z.number().int().positive().optional(),
      seed: z.number().int().optional(),
      reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
      thinkingBudget: z.number().int().min(0).optional(),
    })
    .optional(),
  judgeBlind: z.boolean().default(false),
  /** `--batch`: openai, anthropic and google calls through the vendors' batch APIs. */
  batch: z.boolean().default(false),
  /** Between batch status requests. */
  batchPollMs: z.number().int().positive().default(30_000),
  /** Most requests, and estimated tokens, per batch; seconds before a running batch is cancelled. */
  batchMaxRequests: z.number().int().positive().optional(),
  batchMaxTokens: z.number().int().positive().optional(),
  batchTimeout: z.number().int().positive().optional(),
});
export type RunSpec = z.infer<typeof RunSpecSchema>;

/** `all`, `holistic`, `step_wise`, or a comma list of split names. */
export function parseSplits(value: string): SplitName[] {
  const words = value
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
  const out = new Set<SplitName>();
  for (const word of words) {
    if (word === 'all') SPLITS.forEach((split) => out.add(split));
    else if (word === 'holistic' || word === 'step_wise')
      SPLITS.filter((split) => split.startsWith(word)).forEach((split) => out.add(split));
    else if ((SPLITS as readonly string[]).includes(word)) out.add(word as SplitName);
    else
      throw new UsageError(
        `unknown split "${word}" (expected all, holistic, step_wise or one of ${SPLITS.join(', ')})`,
      );
  }
  if (out.size === 0) throw new UsageError('--splits names no split');
  return SPLITS.filter((split) => out.has(split));
}

/** `I/N` → {index, count}, 1-based. */
export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count)
    throw new UsageError(`--shard expects I/N with 1 ≤ I ≤ N (got "${value}")`);
  return { index, count };
}
