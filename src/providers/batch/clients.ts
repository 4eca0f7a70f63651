/** The vendor batch clients by provider; each SDK is imported only when its client is made. */
import type { BatchClient, BatchClientOptions, BatchProviderId } from './client.js';

/** Loads the vendor's client (its SDK is imported only now). */
export async function createBatchClient(
  provider: BatchProviderId,
  options: BatchClientOptions,
): Promise<BatchClient> {
  if (provider === 'openai')
    return new (await import('./openai-batch.js')).OpenAIBatchClient(options);
  if (provider === 'anthropic')
    return new (await import('./anthropic-batch.js')).AnthropicBatchClient(options);
  return new (await import('./google-batch.js')).GoogleBatchClient(options);
}
