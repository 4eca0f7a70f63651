/**
 * A client's request options, whatever API it spoke (chat completions, responses, Anthropic messages), in chat
 * completions' names, and how each reaches the upstream vendor: the ones every vendor takes become the provider
 * contract's sampling, vendor-only ones go into that vendor's options, and one the upstream does not take is
 * refused with a 400 naming it — never dropped. Nothing is added: an option the client left out is not sent.
 */
import {
  REASONING_EFFORTS,
  type ReasoningEffort,
  type ResponseFormat,
  type SamplingParams,
} from '../providers/provider.js';

/** A request body apb serve cannot take: the message names the field. */
export class BadRequestError extends Error {}

/** The options of one client request, named as in chat completions; absent = not set by the client. */
export interface ClientOptions {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  response_format?: ResponseFormat;
  reasoning_effort?: ReasoningEffort;
  /** Anthropic thinking budget (`thinking.budget_tokens`). */
  thinking_budget?: number;
  top_k?: number;
  parallel_tool_calls?: boolean;
  logprobs?: boolean;
  top_logprobs?: number;
  logit_bias?: Record<string, number>;
  user?: string;
  service_tier?: string;
  store?: boolean;
  metadata?: Record<string, string>;
  verbosity?: string;
  prompt_cache_key?: string;
  safety_identifier?: string;
}

type OptionName = keyof ClientOptions;

/** Options mapped onto the provider contract's sampling, which every adapter sends its own way. */
const SHARED: readonly OptionName[] = [
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'response_format',
  'reasoning_effort',
  'thinking_budget',
];

/** What each upstream vendor takes beyond the shared options (its API documents them; the AI SDK sends them). */
const VENDOR_ONLY: Record<string, readonly OptionName[]> = {
  openai: [
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'parallel_tool_calls',
    'logprobs',
    'top_logprobs',
    'logit_bias',
    'user',
    'service_tier',
    'store',
    'metadata',
    'verbosity',
    'prompt_cache_key',
    'safety_identifier',
  ],
  'openai-compatible': [
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'parallel_tool_calls',
    'logprobs',
    'top_logprobs',
    'logit_bias',
    'user',
    'top_k',
  ],
  anthropic: ['parallel_tool_calls'],
  google: ['seed', 'presence_penalty', 'frequency_penalty'],
};

/** The vendor of a `vendor:model` provider id. */
export const vendorOf = (providerId: string): string => providerId.split(':')[0] ?? providerId;

/** Checks that the upstream takes every option the client set; throws `BadRequestError` naming the first it does not. */
export function checkSupported(vendor: string, options: ClientOptions, names: NameMap = {}): void {
  const allowed = new Set([...SHARED, ...(VENDOR_ONLY[vendor] ?? [])]);
  for (const [name, value] of Object.entries(options) as Array<[OptionName, unknown]>) {
    if (value === undefined || allowed.has(name)) continue;
    throw new BadRequestError(
      `${names[name] ?? name}: not supported by the upstream (${vendor}) behind apb serve; remove it`,
    );
  }
}

/** How the client's API names an option, when not as chat completions does (for error messages). */
export type NameMap = Partial<Record<OptionName, string>>;

/** The options as the provider contract's sampling for `vendor` (checked first with `checkSupported`). */
export function samplingOf(
  vendor: string,
  options: ClientOptions,
  names: NameMap = {},
): SamplingParams {
  checkSupported(vendor, options, names);
  const sampling: SamplingParams = {};
  if (options.temperature !== undefined) sampling.temperature = options.temperature;
  if (options.top_p !== undefined) sampling.topP = options.top_p;
  if (options.max_tokens !== undefined) sampling.maxOutputTokens = options.max_tokens;
  if (options.stop !== undefined) sampling.stopSequences = options.stop;
  if (options.seed !== undefined) sampling.seed = options.seed;
  if (options.presence_penalty !== undefined) sampling.presencePenalty = options.presence_penalty;
  if (options.frequency_penalty !== undefined)
    sampling.frequencyPenalty = options.frequency_penalty;
  if (options.response_format !== undefined) sampling.responseFormat = options.response_format;
  if (options.reasoning_effort !== undefined) sampling.reasoningEffort = options.reasoning_effort;
  if (options.thinking_budget !== undefined) sampling.thinkingBudget = options.thinking_budget;
  const vendorOptions = vendorOptionsOf(vendor, options);
  if (Object.keys(vendorOptions).length > 0) sampling.providerOptions = { [vendor]: vendorOptions };
  return sampling;
}

/** The vendor-only options in the vendor's SDK names (openai-compatible: wire names, sent as they are). */
function vendorOptionsOf(vendor: string, options: ClientOptions): Record<string, unknown> {
  const set = <T>(value: T | undefined, name: string, out: Record<string, unknown>) => {
    if (value !== undefined) out[name] = value;
  };
  const out: Record<string, unknown> = {};
  if (vendor === 'openai') {
    set(options.parallel_tool_calls, 'parallelToolCalls', out);
    if (options.logprobs) out.logprobs = options.top_logprobs ?? true;
    set(options.logit_bias, 'logitBias', out);
    set(options.user, 'user', out);
    set(options.service_tier, 'serviceTier', out);
    set(options.store, 'store', out);
    set(options.metadata, 'metadata', out);
    set(options.verbosity, 'textVerbosity', out);
    set(options.prompt_cache_key, 'promptCacheKey', out);
    set(options.safety_identifier, 'safetyIdentifier', out);
    set(options.response_format?.strict, 'strictJsonSchema', out);
  } else if (vendor === 'openai-compatible') {
    for (const name of ['parallel_tool_calls', 'logprobs', 'top_logprobs', 'logit_bias', 'top_k'])
      set(options[name as OptionName], name, out);
    set(options.user, 'user', out);
    set(options.response_format?.strict, 'strictJsonSchema', out);
  } else if (vendor === 'anthropic') {
    if (options.parallel_tool_calls !== undefined)
      out.disableParallelToolUse = !options.parallel_tool_calls;
  }
  return out;
}

/** A reasoning-effort value a client sent, checked against every value a vendor takes. */
export function reasoningEffortOf(value: unknown, field: string): ReasoningEffort | undefined {
  if (value === undefined || value === null) return undefined;
  const known = REASONING_EFFORTS.find((effort) => effort === value);
  if (!known)
    throw new BadRequestError(
      `${field}: must be one of ${REASONING_EFFORTS.join(', ')} (got ${JSON.stringify(value)})`,
    );
  return known;
}
