/** Google Gemini (generateContent) through `@ai-sdk/google`; JSON replies via `responseMimeType: application/json`. */
import type { Provider } from './provider.js';
import { createSdkProvider, type AdapterOptions } from './sdk-adapter.js';

/** A Gemini model as a Provider. */
export function createGoogleProvider(options: AdapterOptions): Provider {
  const sdk = async () =>
    (await import('@ai-sdk/google')).createGoogleGenerativeAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      fetch: options.fetch,
    });
  return createSdkProvider({
    id: `google:${options.model}`,
    languageModel: async () => (await sdk()).chat(options.model),
    optionsKey: { ours: 'google', sdk: 'google' },
    jsonMode: true,
    secrets: options.apiKey ? [options.apiKey] : [],
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
