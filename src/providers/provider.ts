/** The `Provider` contract: the only shape the core knows of a model endpoint. */
import type { PromptMessage } from '../settings/prompt.js';

/** Token counts as reported by the endpoint (never estimated here). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** Sampling and request options that change the output; all of them enter the cache key. */
export interface SamplingParams {
  temperature?: number;
  maxOutputTokens?: number;
  seed?: number;
  /** Reasoning effort for models that take one; `data/model-defaults.json` maps it to each vendor's option. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Thinking-token budget; 0 turns thinking off where the model allows it (mapped like `reasoningEffort`). */
  thinkingBudget?: number;
  /** Vendor options passed through as data (thinking budgets, reasoning effort…), keyed by vendor. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

export interface ProviderRequest {
  messages: PromptMessage[];
  promptVersion: string;
  /** Ask for a JSON object reply where the endpoint supports it (with a fallback where it does not). */
  json: boolean;
  sampling: SamplingParams;
  /** Repeat index: distinct repeats are distinct cache entries. */
  repeat: number;
  /** Who is calling, for usage accounting: planner, judge or critic. */
  role: 'planner' | 'judge' | 'critic';
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

export interface ProviderResult {
  text: string;
  usage: Usage | null;
  latencyMs: number;
  finishReason: FinishReason;
  /** HTTP attempts made (1 when the first try succeeded; 0 for a cache hit). */
  attempts: number;
  /** True when the reply came from the response cache (excluded from latency and cost). */
  cached: boolean;
  /** Options the endpoint or SDK dropped or changed (e.g. an unsupported temperature), for the run record. */
  warnings?: string[];
}

/** A model endpoint. Failures throw `ProviderError`. */
export interface Provider {
  /** `vendor:model` as the user wrote it. */
  readonly id: string;
  generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult>;
}
