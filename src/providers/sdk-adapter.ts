/**
 * The shared half of every vendor adapter: ProviderRequest → the AI SDK model's `doGenerate` → ProviderResult, errors
 * classified at the edge. It calls the model (the SDK's LanguageModelV3 spec) directly rather than through
 * `generateText`, whose prompt validation, retries, telemetry and step loop we do not use and which cost more CPU per
 * call than the HTTP request itself (docs/performance.md).
 */
import type { LanguageModel } from 'ai';
import { ProviderError } from '../errors.js';
import type { PromptPart } from '../settings/prompt.js';
import { classifyError, rejectsJsonMode } from './classify-error.js';
import { readImage } from './image-bytes.js';
import { saneUsage } from './usage-sanity.js';
import {
  readToolArguments,
  type ChatMessage,
  type FinishReason,
  type ModelToolCall,
  type Provider,
  type ProviderRequest,
  type ProviderResult,
  type ToolDefinition,
  type Usage,
} from './provider.js';

/** The SDK's language-model spec (v3), and what its `doGenerate` takes and returns. */
export type SdkLanguageModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<SdkLanguageModel['doGenerate']>[0];
type SdkPrompt = CallOptions['prompt'];
type SdkResult = Awaited<ReturnType<SdkLanguageModel['doGenerate']>>;

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
  languageModel: SdkLanguageModel;
  /** Key of our `providerOptions` (the provider id) and the SDK's key for the same options. */
  optionsKey: { ours: string; sdk: string };
  /** Whether to ask the endpoint for a JSON reply when the request wants one. */
  jsonMode: boolean;
  /** Values to mask in error messages (the API key). */
  secrets: readonly string[];
}

/** Builds a Provider around an AI SDK language model (no SDK retries: ours are the only ones). */
export function createSdkProvider(config: SdkAdapterConfig): Provider {
  // Once an endpoint has rejected the JSON option, later calls skip it instead of paying a 400 each time.
  let jsonRejected = false;

  const call = async (
    request: ProviderRequest,
    prompt: SdkPrompt,
    json: boolean,
    signal: AbortSignal | undefined,
  ) => {
    const { temperature, maxOutputTokens, seed, providerOptions } = request.sampling;
    const vendorOptions = providerOptions?.[config.optionsKey.ours];
    try {
      // A JSON reply format, yet the raw text comes back: parsing is the setting's job, and prose is data, not an error.
      return await config.languageModel.doGenerate({
        prompt,
        temperature,
        maxOutputTokens,
        seed,
        providerOptions: vendorOptions
          ? ({ [config.optionsKey.sdk]: vendorOptions } as CallOptions['providerOptions'])
          : undefined,
        abortSignal: signal,
        ...(json ? { responseFormat: { type: 'json' as const } } : {}),
        ...(request.tools ? toolOptions(request.tools, request.toolChoice) : {}),
      });
    } catch (error) {
      if (json && rejectsJsonMode(error)) return 'json-rejected' as const;
      throw classifyError(error, { provider: config.id, signal, secrets: config.secrets });
    }
  };

  return {
    id: config.id,
    async generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult> {
      const prompt = await toSdkPrompt(request.messages, config.id);
      const started = performance.now();
      let attempts = 1;
      let result = await call(
        request,
        prompt,
        request.json && config.jsonMode && !jsonRejected,
        signal,
      );
      if (result === 'json-rejected') {
        jsonRejected = true;
        attempts = 2;
        result = await call(request, prompt, false, signal);
        if (result === 'json-rejected') throw new Error('unreachable: JSON mode was off');
      }
      const warnings = (result.warnings ?? []).map((warning) => JSON.stringify(warning));
      if (jsonRejected && request.json && config.jsonMode)
        warnings.push('JSON reply mode rejected by the endpoint; sent without it');
      const usage = saneUsage(toUsage(result.usage));
      warnings.push(...usage.warnings);
      const toolCalls = toolCallsOf(result.content);
      return {
        text: textOf(result.content),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        usage: usage.usage,
        latencyMs: Math.round(performance.now() - started),
        finishReason: toFinishReason(result.finishReason?.unified),
        attempts,
        cached: false,
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(usage.implausible ? { usageImplausible: true } : {}),
      };
    },
  };
}

/** The reply text: every text part, in order (reasoning parts are not the answer). */
function textOf(content: SdkResult['content']): string {
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/** Our tool definitions and choice → the SDK's function tools and tool choice. */
function toolOptions(
  tools: readonly ToolDefinition[],
  choice: ProviderRequest['toolChoice'],
): Pick<CallOptions, 'tools' | 'toolChoice'> {
  return {
    tools: tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as never,
    })),
    toolChoice:
      typeof choice === 'object'
        ? { type: 'tool', toolName: choice.tool }
        : { type: choice ?? 'auto' },
  };
}

/** The reply's tool calls; arguments that are not a JSON object are kept as an error, never guessed at. */
function toolCallsOf(content: SdkResult['content']): ModelToolCall[] {
  const calls: ModelToolCall[] = [];
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    calls.push({ id: part.toolCallId, name: part.toolName, ...readToolArguments(part.input) });
  }
  return calls;
}

/** Chat messages → the SDK prompt; image bytes are read now, and images are accepted in user messages only. */
export async function toSdkPrompt(messages: ChatMessage[], provider: string): Promise<SdkPrompt> {
  return Promise.all(
    messages.map(async (message): Promise<SdkPrompt[number]> => {
      if (message.role === 'tool') {
        return {
          role: 'tool',
          content: message.results.map((result) => ({
            type: 'tool-result' as const,
            toolCallId: result.callId,
            toolName: result.name,
            output: result.isError
              ? { type: 'error-text' as const, value: result.content }
              : { type: 'text' as const, value: result.content },
          })),
        };
      }
      if (message.role === 'user') {
        const content = await Promise.all(
          message.parts.map(async (part) => {
            if (part.type === 'text') return { type: 'text' as const, text: part.text };
            const image = await readImageOrFail(part.file, provider);
            return { type: 'file' as const, data: image.base64, mediaType: image.mediaType };
          }),
        );
        return {
          role: 'user',
          content: content.filter((part) => part.type !== 'text' || part.text !== ''),
        };
      }
      if (message.parts.some((part) => part.type === 'image')) {
        throw new ProviderError({
          provider,
          kind: 'client',
          retryable: false,
          message: `${provider}: image parts are only supported in user messages (got one in a ${message.role} message)`,
        });
      }
      const text = textOfParts(message.parts);
      if (message.role === 'system') return { role: 'system', content: text };
      const calls = 'toolCalls' in message ? message.toolCalls : [];
      return {
        role: 'assistant',
        content: [
          ...(text !== '' || calls.length === 0 ? [{ type: 'text' as const, text }] : []),
          ...calls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
          })),
        ],
      };
    }),
  );
}

function textOfParts(parts: PromptPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
}

async function readImageOrFail(file: Parameters<typeof readImage>[0], provider: string) {
  try {
    return await readImage(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError({
      provider,
      kind: 'client',
      retryable: false,
      message: `${provider}: cannot send image: ${reason}`,
      cause: error,
    });
  }
}

function toUsage(usage: SdkResult['usage'] | undefined): Usage | null {
  if (!usage || (usage.inputTokens?.total === undefined && usage.outputTokens?.total === undefined))
    return null;
  const reasoningTokens = usage.outputTokens?.reasoning;
  const cachedInputTokens = usage.inputTokens?.cacheRead;
  return {
    inputTokens: usage.inputTokens?.total ?? 0,
    outputTokens: usage.outputTokens?.total ?? 0,
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
  };
}

const FINISH_REASONS: readonly FinishReason[] = [
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
];

function toFinishReason(reason: string | undefined): FinishReason {
  return FINISH_REASONS.find((known) => known === reason) ?? 'unknown';
}
