/** The shared half of every vendor adapter: ProviderRequest → AI SDK `generateText` → ProviderResult, errors classified at the edge. */
import { generateText, type LanguageModel, type LanguageModelUsage, type ModelMessage } from 'ai';
import { ProviderError } from '../errors.js';
import type { PromptMessage } from '../settings/prompt.js';
import { classifyError, rejectsJsonMode } from './classify-error.js';
import { readImage } from './image-bytes.js';
import type { FinishReason, Provider, ProviderRequest, ProviderResult, Usage } from './provider.js';

/** What a vendor file is given by the registry. */
export interface AdapterOptions {
  /** The model name after `PROVIDER:`. */
  model: string;
  apiKey: string | undefined;
  /** Full base URL including the API version path (`…/v1`, `…/v1beta`). */
  baseUrl: string;
  /** Injectable fetch (the ofetch pattern); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** What a vendor file hands to `createSdkProvider`. */
export interface SdkAdapterConfig {
  /** `vendor:model`. */
  id: string;
  languageModel: LanguageModel;
  /** Key of our `providerOptions` (the provider id) and the SDK's key for the same options. */
  optionsKey: { ours: string; sdk: string };
  /** Whether to ask the endpoint for a JSON reply when the request wants one. */
  jsonMode: boolean;
  /** Values to mask in error messages (the API key). */
  secrets: readonly string[];
}

// A JSON response format that still hands back the raw text: parsing is the setting's job, and prose is data, not an error.
const JSON_TEXT_OUTPUT = {
  name: 'json-text',
  responseFormat: Promise.resolve({ type: 'json' as const }),
  parseCompleteOutput: async ({ text }: { text: string }) => text,
  parsePartialOutput: async ({ text }: { text: string }) => ({ partial: text }),
  createElementStreamTransform: () => undefined,
};

/** Builds a Provider around an AI SDK language model; the SDK's own retries are off (`maxRetries: 0`). */
export function createSdkProvider(config: SdkAdapterConfig): Provider {
  // SDK warnings go into `ProviderResult.warnings`, not the console (unless the host installed its own logger).
  const globals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  globals.AI_SDK_LOG_WARNINGS ??= false;
  // Once an endpoint has rejected the JSON option, later calls skip it instead of paying a 400 each time.
  let jsonRejected = false;

  const call = async (request: ProviderRequest, messages: ModelMessage[], json: boolean, signal: AbortSignal | undefined) => {
    const { temperature, maxOutputTokens, seed, providerOptions } = request.sampling;
    const vendorOptions = providerOptions?.[config.optionsKey.ours];
    try {
      return await generateText({
        model: config.languageModel,
        messages,
        temperature,
        maxOutputTokens,
        seed,
        providerOptions: vendorOptions ? ({ [config.optionsKey.sdk]: vendorOptions } as Parameters<typeof generateText>[0]['providerOptions']) : undefined,
        maxRetries: 0,
        abortSignal: signal,
        // Our prompts are trusted templates; system text stays where the setting put it.
        allowSystemInMessages: true,
        ...(json ? { output: JSON_TEXT_OUTPUT } : {}),
      });
    } catch (error) {
      if (json && rejectsJsonMode(error)) return 'json-rejected' as const;
      throw classifyError(error, { provider: config.id, signal, secrets: config.secrets });
    }
  };

  return {
    id: config.id,
    async generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult> {
      const messages = await toModelMessages(request.messages, config.id);
      const started = performance.now();
      let attempts = 1;
      let result = await call(request, messages, request.json && config.jsonMode && !jsonRejected, signal);
      if (result === 'json-rejected') {
        jsonRejected = true;
        attempts = 2;
        result = await call(request, messages, false, signal);
        if (result === 'json-rejected') throw new Error('unreachable: JSON mode was off');
      }
      const warnings = (result.warnings ?? []).map((warning) => JSON.stringify(warning));
      if (jsonRejected && request.json && config.jsonMode) warnings.push('JSON reply mode rejected by the endpoint; sent without it');
      return {
        text: result.text,
        usage: toUsage(result.usage),
        latencyMs: Math.round(performance.now() - started),
        finishReason: toFinishReason(result.finishReason),
        attempts,
        cached: false,
        ...(warnings.length > 0 ? { warnings } : {}),
      };
    },
  };
}

/** Prompt messages → SDK messages; image bytes are read now, and images are accepted in user messages only. */
export async function toModelMessages(messages: PromptMessage[], provider: string): Promise<ModelMessage[]> {
  return Promise.all(
    messages.map(async (message): Promise<ModelMessage> => {
      if (message.role === 'user') {
        const content = await Promise.all(
          message.parts.map(async (part) => {
            if (part.type === 'text') return { type: 'text' as const, text: part.text };
            const image = await readImageOrFail(part.file, provider);
            return { type: 'image' as const, image: image.data, mediaType: image.mediaType };
          }),
        );
        return { role: 'user', content };
      }
      if (message.parts.some((part) => part.type === 'image')) {
        throw new ProviderError({ provider, kind: 'client', retryable: false, message: `${provider}: image parts are only supported in user messages (got one in a ${message.role} message)` });
      }
      const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
      return message.role === 'system' ? { role: 'system', content: text } : { role: 'assistant', content: text };
    }),
  );
}

async function readImageOrFail(file: Parameters<typeof readImage>[0], provider: string) {
  try {
    return await readImage(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError({ provider, kind: 'client', retryable: false, message: `${provider}: cannot send image: ${reason}`, cause: error });
  }
}

function toUsage(usage: LanguageModelUsage | undefined): Usage | null {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const reasoningTokens = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens;
  const cachedInputTokens = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens;
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
  };
}

const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'];

function toFinishReason(reason: string | undefined): FinishReason {
  return FINISH_REASONS.find((known) => known === reason) ?? 'unknown';
}
