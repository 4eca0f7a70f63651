/**
 * The model a construction step generates with (`--llm`): a `Provider` (the engine's stack: cache,
 * retries, limits, budget) asked for one JSON object per prompt. Replies are untrusted text: a reply
 * that holds no JSON object, or a failed call, is a failure of that item, never a value.
 */
import { ApbError, ProviderError } from '../errors.js';
import type { Provider, SamplingParams, Usage } from '../providers/provider.js';
import { extractJson } from '../settings/answer-json.js';
import type { PromptMessage } from '../settings/prompt.js';

/** One generation request of a step. */
export interface ModelPrompt {
  /** `name@hash` of the prompt's templates (recorded in the meta line). */
  promptVersion: string;
  system: string;
  user: string;
}

/** A reply's JSON object, or why there is none. */
export type ModelReply =
  { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Calls and tokens a model spent, for the step summary. */
export interface ModelUsage {
  calls: number;
  cached: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
}

/** What a step generates with. */
export interface ConstructionModel {
  /** The `PROVIDER:MODEL` spec. */
  readonly id: string;
  /** Items a step runs at once (the provider's limiter still bounds requests per endpoint). */
  readonly concurrency: number;
  readonly usage: ModelUsage;
  ask(prompt: ModelPrompt): Promise<ModelReply>;
}

/** Failures that stop the step instead of failing one item: a rejected key, the budget, an abort. */
function isFatal(error: unknown): boolean {
  if (error instanceof ProviderError) return error.kind === 'auth' || error.kind === 'aborted';
  return error instanceof ApbError && error.code === 'budget';
}

/** A construction prompt as provider messages (one system, one user). */
export function promptMessages(prompt: ModelPrompt): PromptMessage[] {
  return [
    { role: 'system', parts: [{ type: 'text', text: prompt.system }] },
    { role: 'user', parts: [{ type: 'text', text: prompt.user }] },
  ];
}

function addUsage(total: ModelUsage, usage: Usage | null): void {
  total.inputTokens += usage?.inputTokens ?? 0;
  total.outputTokens += usage?.outputTokens ?? 0;
}

/** Output tokens a construction call may use: a tool bank or ten distractors need room (the budget gate reserves this). */
export const CONSTRUCT_MAX_OUTPUT_TOKENS = 4096;

/** A construction model over a provider stack; temperature 0 and a 4,096-token cap unless `sampling` says otherwise. */
export function providerModel(
  provider: Provider,
  options: {
    concurrency: number;
    sampling?: SamplingParams;
    signal?: AbortSignal;
    /** The JSON cap replies are read under; default `DEFAULT_LIMITS`'. */
    jsonDepth?: number;
  },
): ConstructionModel {
  const usage: ModelUsage = { calls: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0 };
  const sampling = {
    temperature: 0,
    maxOutputTokens: CONSTRUCT_MAX_OUTPUT_TOKENS,
    ...options.sampling,
  };
  return {
    id: provider.id,
    concurrency: options.concurrency,
    usage,
    async ask(prompt) {
      usage.calls += 1;
      try {
        const result = await provider.generate(
          {
            messages: promptMessages(prompt),
            promptVersion: prompt.promptVersion,
            json: true,
            sampling,
            repeat: 0,
            role: 'construct',
          },
          options.signal,
        );
        if (result.cached) usage.cached += 1;
        else addUsage(usage, result.usage);
        if (result.finishReason === 'length')
          return fail(usage, 'the reply was cut off at the output limit');
        const found = extractJson(result.text, { repair: false, maxDepth: options.jsonDepth });
        if (
          !found ||
          typeof found.value !== 'object' ||
          Array.isArray(found.value) ||
          found.value === null
        )
          return fail(usage, 'the reply holds no JSON object');
        return { ok: true, value: found.value as Record<string, unknown> };
      } catch (error) {
        if (isFatal(error)) throw error;
        return fail(usage, `the call failed: ${(error as Error).message}`);
      }
    },
  };
}

function fail(usage: ModelUsage, reason: string): ModelReply {
  usage.failed += 1;
  return { ok: false, reason };
}
