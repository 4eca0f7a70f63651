/** OpenAI (chat completions) through `@ai-sdk/openai`; JSON replies via `response_format: json_object`. */
import { createOpenAI } from '@ai-sdk/openai';
import type { Provider } from './provider.js';
import { createSdkProvider, type AdapterOptions } from './sdk-adapter.js';

/** An OpenAI model as a Provider. */
export function createOpenAIProvider(options: AdapterOptions): Provider {
  const sdk = createOpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    fetch: options.fetch,
  });
  return createSdkProvider({
    id: `openai:${options.model}`,
    languageModel: sdk.chat(options.model),
    optionsKey: { ours: 'openai', sdk: 'openai' },
    jsonMode: true,
    secrets: options.apiKey ? [options.apiKey] : [],
  });
}
