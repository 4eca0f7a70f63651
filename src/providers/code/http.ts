/** `http:URL`: one POST of the request as JSON per case or turn; the reply body is the answer. */
import { ProviderError, UsageError } from '../../errors.js';
import { parseUntrustedJson } from '../../json-depth.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { createNodeFetch } from '../node-fetch.js';
import type { CodeTransport } from './adapter.js';
import { codeError } from './wire.js';

/** Checks the URL now (a bad one is a usage error before any call). */
export function checkHttpTarget(spec: string, target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`${spec}: "${target}" is not a URL (expected http:http://HOST:PORT/PATH)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${spec}: the URL must start with http:// or https://`);
  if (url.username || url.password)
    throw new UsageError(`${spec}: the URL must not carry credentials`);
  return url;
}

/** Status → how the failure is retried: 429 and 5xx again, 401/403 stop the run, other 4xx are the case's. */
function statusError(id: string, status: number, body: string): ProviderError {
  const said = body.trim().slice(0, 300);
  const message = `${id}: HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status === 401 || status === 403)
    return new ProviderError({ provider: id, kind: 'auth', retryable: false, status, message });
  if (status === 429)
    return new ProviderError({
      provider: id,
      kind: 'rate-limit',
      retryable: true,
      status,
      message,
    });
  if (status >= 500)
    return new ProviderError({ provider: id, kind: 'server', retryable: true, status, message });
  return new ProviderError({ provider: id, kind: 'client', retryable: false, status, message });
}

/** The transport of `http:URL`, its replies read under `limits` (fetch injectable for tests). */
export function httpTransport(
  id: string,
  url: URL,
  fetch?: typeof globalThis.fetch,
  limits: Limits = DEFAULT_LIMITS,
): CodeTransport {
  const send = fetch ?? createNodeFetch(limits);
  return async (request, signal) => {
    let response: Response;
    try {
      response = await send(url.href, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new ProviderError({
        provider: id,
        kind: 'network',
        retryable: true,
        message: `${id}: cannot reach the server (${cause})`,
        cause: error,
      });
    }
    const body = await response.text();
    if (!response.ok) throw statusError(id, response.status, body);
    try {
      return parseUntrustedJson(body, limits.jsonDepth);
    } catch {
      throw codeError(id, `the reply is not JSON: ${body.slice(0, 200)}`);
    }
  };
}
