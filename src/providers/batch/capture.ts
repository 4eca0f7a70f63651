/**
 * Batch requests are the interactive requests: the body of each batch item is captured from the
 * same AI SDK adapter that would send it (prompt conversion, images, model defaults, JSON mode,
 * vendor options), and each batch result is handed back to that adapter as if the endpoint had
 * answered, so text, usage and finish reason are read by the same code as an interactive reply.
 */
import type { Provider, ProviderRequest, ProviderResult } from '../provider.js';

/** An adapter built over a given `fetch` (the registry's vendor adapter for one model and endpoint). */
export type AdapterFactory = (fetch: typeof globalThis.fetch) => Provider;

/** What the adapter would have sent: the path under the base URL, and the JSON body. */
export interface CapturedRequest {
  path: string;
  body: Record<string, unknown>;
}

/** Thrown by the capturing fetch once it has what it needs; never leaves this module. */
class Captured extends Error {
  constructor(readonly request: CapturedRequest) {
    super('captured');
  }
}

/** The request body the adapter would send for `request`, without sending anything. */
export async function captureRequest(
  adapter: AdapterFactory,
  baseUrl: string,
  request: ProviderRequest,
): Promise<CapturedRequest> {
  let captured: CapturedRequest | null = null;
  const capture: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname;
    captured = {
      path: path.split('?')[0]!,
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
    };
    throw new Captured(captured);
  };
  try {
    await adapter(capture).generate(request);
  } catch (error) {
    if (captured) return captured;
    throw error;
  }
  throw new Error('the adapter answered without sending a request');
}

/** Reads a batch result body (the endpoint's reply to one request) through the adapter, as an interactive reply. */
export async function replayResult(
  adapter: AdapterFactory,
  request: ProviderRequest,
  body: unknown,
): Promise<ProviderResult> {
  const text = JSON.stringify(body);
  const answer: typeof globalThis.fetch = async () =>
    new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  return adapter(answer).generate(request);
}
