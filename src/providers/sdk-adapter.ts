/**
 * The shared half of every vendor adapter: ProviderRequest → the AI SDK model's `doGenerate` → ProviderResult, errors
 * classified at the edge. It calls the model (the SDK's LanguageModelV3 spec) directly rather than through
 * `generateText`, whose prompt validation, retries, telemetry and step loop we do not use and which cost more CPU per
 * call than the HTTP request itself (docs/performance.md).
 */
import type { LanguageModel } from 'ai';
import { ProviderError } from '../errors.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { PromptPart } from '../settings/prompt.js';
import { classifyError, rejectsJsonMode } from './classify-error.js';
import { toSdkPrompt } from './sdk-prompt.js';
import { saneUsage } from './usage-sanity.js';
import {
  readToolArguments,
  type ChatMessage,
  type FinishReason,
  type ModelToolCall,
  type Provider,
  type ProviderRequest,
  type ProviderResult,
  type ReasoningPart,
  type ResponseFormat,
  type ToolDefinition,
  type Usage,
} from './provider.js';

/** The SDK's language-model spec (v3), and what its `doGenerate` takes and returns. */
export type SdkLanguageModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<SdkLanguageModel['doGenerate']>[0];
type SdkPrompt = CallOptions['prompt'];
export { toSdkPrompt } from './sdk-prompt.js';
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
  /** The caps on images sent and tool-call arguments read; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** What a vendor file hands to `createSdkProvider`. */
export interface SdkAdapterConfig {
  /** `vendor:model`. */
  id: string;
  /**
   * The model, or a loader of it: the vendor files import their SDK package on the first call, so a
   * command that never calls a model (and every CLI start) does not pay for loading it.
   */
  languageModel: SdkLanguageModel | (() => Promise<SdkLanguageModel>);
  /** Key of our `providerOptions` (the provider id) and the SDK's key for the same options. */
  optionsKey: { ours: string; sdk: string };
  /** Whether to ask the endpoint for a JSON reply when the request wants one. */
  jsonMode: boolean;
  /** Values to mask in error messages (the API key). */
  secrets: readonly string[];
  /** The caps on images sent and tool-call arguments read; default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** Builds a Provider around an AI SDK language model (no SDK retries: ours are the only ones). */
export function createSdkProvider(config: SdkAdapterConfig): Provider {
  const limits = config.limits ?? DEFAULT_LIMITS;
  // Once an endpoint has rejected the JSON option, later calls skip it instead of paying a 400 each time.
  let jsonRejected = false;
  let loaded: Promise<SdkLanguageModel> | undefined;
  const model = () =>
    (loaded ??= Promise.resolve(
      typeof config.languageModel === 'function' ? config.languageModel() : config.languageModel,
    ));

  const call = async (
    request: ProviderRequest,
    prompt: SdkPrompt,
    json: boolean,
    signal: AbortSignal | undefined,
  ) => callModel(config, await model(), { request, prompt, json, signal });

  return {
    id: config.id,
    async generate(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResult> {
      const prompt = await toSdkPrompt(request.messages, config.id, limits.imageBytes);
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
      return toProviderResult(result, { attempts, started, warnings, jsonDepth: limits.jsonDepth });
    },
  };
}

/**
 * One `doGenerate` call, its errors classified at the edge; `'json-rejected'` when the endpoint
 * refused the JSON option (the caller sends again without it).
 */
async function callModel(
  config: SdkAdapterConfig,
  languageModel: SdkLanguageModel,
  call: { request: ProviderRequest; prompt: SdkPrompt; json: boolean; signal?: AbortSignal },
): Promise<SdkResult | 'json-rejected'> {
  const { request, prompt, json, signal } = call;
  const { temperature, maxOutputTokens, seed, providerOptions } = request.sampling;
  const vendorOptions = providerOptions?.[config.optionsKey.ours];
  const format = request.sampling.responseFormat;
  try {
    // A JSON reply format, yet the raw text comes back: parsing is the setting's job, and prose
    // is data, not an error.
    return await languageModel.doGenerate({
      prompt,
      temperature,
      maxOutputTokens,
      seed,
      ...clientSampling(request.sampling),
      providerOptions: vendorOptions
        ? ({ [config.optionsKey.sdk]: vendorOptions } as CallOptions['providerOptions'])
        : undefined,
      abortSignal: signal,
      ...(format ? { responseFormat: sdkFormat(format) } : {}),
      ...(json && !format ? { responseFormat: { type: 'json' as const } } : {}),
      ...(request.tools ? toolOptions(request.tools, request.toolChoice) : {}),
    });
  } catch (error) {
    if (json && rejectsJsonMode(error)) return 'json-rejected';
    throw classifyError(error, { provider: config.id, signal, secrets: config.secrets });
  }
}

/** The SDK's reply as ours: text, tool calls, reasoning, vendor metadata, usage (checked), finish reason. */
function toProviderResult(
  result: SdkResult,
  call: { attempts: number; started: number; warnings: string[]; jsonDepth: number },
): ProviderResult {
  const usage = saneUsage(toUsage(result.usage));
  const warnings = [...call.warnings, ...usage.warnings];
  const toolCalls = toolCallsOf(result.content, call.jsonDepth);
  const reasoning = reasoningOf(result.content);
  return {
    text: textOf(result.content),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    ...(result.providerMetadata
      ? { vendorMetadata: result.providerMetadata as ProviderResult['vendorMetadata'] }
      : {}),
    usage: usage.usage,
    latencyMs: Math.round(performance.now() - call.started),
    finishReason: toFinishReason(result.finishReason?.unified),
    attempts: call.attempts,
    cached: false,
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(usage.implausible ? { usageImplausible: true } : {}),
  };
}

/** The reply text: every text part, in order (reasoning parts are not the answer). */
function textOf(content: SdkResult['content']): string {
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/** The sampling a client chose beyond ours (top_p, stop, penalties), only where set. */
function clientSampling(sampling: ProviderRequest['sampling']): Partial<CallOptions> {
  const { topP, stopSequences, presencePenalty, frequencyPenalty } = sampling;
  return {
    ...(topP !== undefined ? { topP } : {}),
    ...(stopSequences !== undefined ? { stopSequences } : {}),
    ...(presencePenalty !== undefined ? { presencePenalty } : {}),
    ...(frequencyPenalty !== undefined ? { frequencyPenalty } : {}),
  };
}

/** Our response format → the SDK's (the schema's strictness is a vendor option, set by the caller). */
function sdkFormat(format: ResponseFormat): NonNullable<CallOptions['responseFormat']> {
  return {
    type: 'json',
    ...(format.schema ? { schema: format.schema as never } : {}),
    ...(format.name ? { name: format.name } : {}),
    ...(format.description ? { description: format.description } : {}),
  };
}

/** The reply's reasoning blocks with their vendor data (signatures), kept so a later turn can send them back. */
function reasoningOf(content: SdkResult['content']): ReasoningPart[] {
  const parts: ReasoningPart[] = [];
  for (const part of content) {
    if (part.type !== 'reasoning') continue;
    parts.push({
      text: part.text,
      ...(part.providerMetadata
        ? { vendorMetadata: part.providerMetadata as ReasoningPart['vendorMetadata'] }
        : {}),
    });
  }
  return parts;
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
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    })),
    toolChoice:
      typeof choice === 'object'
        ? { type: 'tool', toolName: choice.tool }
        : { type: choice ?? 'auto' },
  };
}

/** The reply's tool calls; arguments that are not a JSON object are kept as an error, never guessed at. */
function toolCallsOf(content: SdkResult['content'], jsonDepth: number): ModelToolCall[] {
  const calls: ModelToolCall[] = [];
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    calls.push({
      id: part.toolCallId,
      name: part.toolName,
      ...readToolArguments(part.input, jsonDepth),
      ...(part.providerMetadata
        ? { vendorMetadata: part.providerMetadata as ModelToolCall['vendorMetadata'] }
        : {}),
    });
  }
  return calls;
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
