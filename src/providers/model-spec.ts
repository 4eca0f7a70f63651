/** Model specs (`PROVIDER:MODEL`) and what apb knows about each model provider. */
import { UsageError } from '../errors.js';

/** Facts about one provider: where its key lives, its default endpoint and whether it takes a JSON reply mode. */
export interface ProviderInfo {
  /** Environment variables holding the API key, in the order they are tried. */
  keyEnv: readonly string[];
  /** A missing key is an error (false for local OpenAI-compatible servers). */
  keyRequired: boolean;
  /** Used when the caller gives no base URL; `null` means a base URL is required. */
  defaultBaseUrl: string | null;
  /**
   * The vendor's own base-URL variables (what its SDK reads), tried in order before the default:
   * a user routing through a proxy or gateway must not send real-key traffic to the vendor.
   */
  baseUrlEnv: readonly string[];
  /** The endpoint has a JSON reply mode (OpenAI `response_format`, Gemini `responseMimeType`). */
  jsonMode: boolean;
}

/** The model providers apb can call over HTTP; `baseline:*` and `rules` are resolved by the pipeline, not here. */
export const PROVIDERS = {
  openai: {
    keyEnv: ['OPENAI_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://api.openai.com/v1',
    baseUrlEnv: ['OPENAI_BASE_URL'],
    jsonMode: true,
  },
  anthropic: {
    keyEnv: ['ANTHROPIC_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    baseUrlEnv: ['ANTHROPIC_BASE_URL'],
    jsonMode: false,
  },
  google: {
    keyEnv: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    keyRequired: true,
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    baseUrlEnv: ['GOOGLE_GENERATIVE_AI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'],
    jsonMode: true,
  },
  'openai-compatible': {
    keyEnv: ['APB_API_KEY'],
    keyRequired: false,
    defaultBaseUrl: null,
    baseUrlEnv: [],
    jsonMode: true,
  },
} as const satisfies Record<string, ProviderInfo>;

/** One of `openai`, `anthropic`, `google`, `openai-compatible`. */
export type ProviderId = keyof typeof PROVIDERS;

/** A parsed `PROVIDER:MODEL`. */
export interface ModelSpec {
  provider: ProviderId;
  model: string;
}

/** True when `value` names a model provider apb calls over HTTP. */
export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROVIDERS, value);
}

/**
 * Parses `PROVIDER:MODEL` (split at the first colon, so `openai-compatible:llama3.2:3b` keeps its
 * tag); throws `UsageError`.
 */
export function parseModelSpec(text: string): ModelSpec {
  const colon = text.indexOf(':');
  const provider = colon < 0 ? text.trim() : text.slice(0, colon).trim();
  const model = colon < 0 ? '' : text.slice(colon + 1).trim();
  const known = Object.keys(PROVIDERS).join(', ');
  if (!isProviderId(provider)) {
    const hint =
      provider === 'baseline' || provider === 'rules'
        ? ` ("${provider}" is not a model provider here)`
        : '';
    throw new UsageError(
      `unknown model provider "${provider}" in "${text}"${hint}: expected PROVIDER:MODEL with PROVIDER one of ${known}`,
    );
  }
  if (!model)
    throw new UsageError(
      `model spec "${text}" has no model name: expected ${provider}:MODEL, e.g. ${provider}:${exampleModel(provider)}`,
    );
  return { provider, model };
}

/** Renders a spec back to `PROVIDER:MODEL`. */
export function formatModelSpec(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}

function exampleModel(provider: ProviderId): string {
  const examples: Record<ProviderId, string> = {
    openai: 'gpt-4o',
    anthropic: 'claude-sonnet-4-5',
    google: 'gemini-2.5-flash',
    'openai-compatible': 'qwen3-vl-32b',
  };
  return examples[provider];
}
