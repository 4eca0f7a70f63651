/** Anthropic (messages API) through `@ai-sdk/anthropic`; it has no JSON reply mode, so the prompt asks for JSON. */
import type { Provider } from './provider.js';
import { createSdkProvider, type AdapterOptions } from './sdk-adapter.js';

/** An Anthropic model as a Provider. */
export function createAnthropicProvider(options: AdapterOptions): Provider {
  const sdk = async () =>
    (await import('@ai-sdk/anthropic')).createAnthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      fetch: options.fetch,
    });
  return createSdkProvider({
    id: `anthropic:${options.model}`,
    languageModel: async () => (await sdk()).messages(options.model),
    optionsKey: { ours: 'anthropic', sdk: 'anthropic' },
    jsonMode: false,
    secrets: options.apiKey ? [options.apiKey] : [],
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
