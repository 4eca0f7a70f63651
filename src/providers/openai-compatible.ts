/**
 * Any OpenAI-compatible chat server (vLLM, Ollama, llama.cpp server, OpenRouter) through
 * `@ai-sdk/openai-compatible`.
 */
import type { Provider } from './provider.js';
import { createSdkProvider, type AdapterOptions } from './sdk-adapter.js';

/** A model behind an OpenAI-compatible base URL as a Provider; the key is optional (sent as `Bearer` when given). */
export function createOpenAICompatibleProvider(options: AdapterOptions): Provider {
  // Our options key `openai-compatible` maps to the SDK's `openaiCompatible`; unknown fields pass
  // through into the body.
  const sdk = async () =>
    (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
      name: 'openaiCompatible',
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      fetch: options.fetch,
      // A JSON schema is sent as `json_schema` (vLLM, llama.cpp, Ollama take it), not weakened to `json_object`;
      // only a request with a schema (a client's structured output through `apb serve`) carries one.
      supportsStructuredOutputs: true,
    });
  return createSdkProvider({
    id: `openai-compatible:${options.model}`,
    languageModel: async () => (await sdk()).chatModel(options.model),
    optionsKey: { ours: 'openai-compatible', sdk: 'openaiCompatible' },
    jsonMode: true,
    secrets: options.apiKey ? [options.apiKey] : [],
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
