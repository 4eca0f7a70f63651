/** OpenAI (chat completions) through `@ai-sdk/openai`; JSON replies via `response_format: json_object`. */
import type { Provider } from './provider.js';
import { createSdkProvider, type AdapterOptions } from './sdk-adapter.js';

/** An OpenAI model as a Provider. */
export function createOpenAIProvider(options: AdapterOptions): Provider {
  const sdk = async () =>
    (await import('@ai-sdk/openai')).createOpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      fetch: options.fetch,
    });
  return createSdkProvider({
    id: `openai:${options.model}`,
    languageModel: async () => (await sdk()).chat(options.model),
    optionsKey: { ours: 'openai', sdk: 'openai' },
    jsonMode: true,
    secrets: options.apiKey ? [options.apiKey] : [],
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
