/**
 * The adapters' `fetch`: a lean one over node:http(s) with keep-alive agents. It does what the
 * adapters need (send a body, read the whole reply, return it as a `BufferedResponse`) for about
 * a fifth of the CPU of Node 20's global fetch (docs/performance.md). Failures look like the
 * global fetch's: `TypeError('fetch failed', { cause })`, or the signal's reason on abort.
 * Anything else goes to the global fetch.
 */
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { onAbort } from './abort.js';
import { BufferedResponse } from './buffered-response.js';
import { DEFAULT_LIMITS, formatBytes, LIMIT_VARIABLES, type Limits } from '../limits.js';

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers))
    return Object.fromEntries(headers as Iterable<[string, string]>);
  return { ...(headers as Record<string, string>) };
}

/** The code of the error for a reply over a size cap: not retried (a server sending 1 GB will send it again). */
export const REPLY_TOO_LARGE = 'APB_REPLY_TOO_LARGE';

function tooLarge(message: string): Error {
  return Object.assign(new Error(message), { code: REPLY_TOO_LARGE });
}

/** Decodes a compressed body, never past the decompressed-size cap (a 4 MB gzip bomb once became 1 GB in memory). */
function decode(body: Buffer, encoding: string | undefined, caps: ReplyCaps): Buffer {
  const options = { maxOutputLength: caps.decompressedBytes };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, options);
    if (encoding === 'deflate') return inflateSync(body, options);
    if (encoding === 'br') return brotliDecompressSync(body, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge(
        `the reply decompresses to more than ${formatBytes(caps.decompressedBytes)} (the cap, ${LIMIT_VARIABLES.decompressedBytes})`,
      );
    throw error;
  }
  return body;
}

function headerPairs(raw: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    pairs.push([raw[index]!, raw[index + 1]!]);
  return pairs;
}

/** The caps a reply is read under. */
export type ReplyCaps = Pick<Limits, 'replyBytes' | 'decompressedBytes'>;

/**
 * A `fetch` for string or byte bodies over node:http(s) that reads replies under `caps`; same
 * contract as the global one for what the AI SDK sends.
 */
export function createNodeFetch(caps: ReplyCaps = DEFAULT_LIMITS): typeof globalThis.fetch {
  return (input, init = {}) => fetchOver(input, init, caps);
}

/** `createNodeFetch` under the default caps. */
export const nodeFetch: typeof globalThis.fetch = createNodeFetch();

function fetchOver(
  input: Parameters<typeof globalThis.fetch>[0],
  init: RequestInit,
  caps: ReplyCaps,
): Promise<Response> {
  const body = init.body;
  const simpleBody =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (
    input instanceof Request ||
    !simpleBody ||
    (init.redirect !== undefined && init.redirect !== 'follow')
  )
    return globalThis.fetch(input, init);
  const url = new URL(String(input));
  const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  if (!transport) return globalThis.fetch(input, init);
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let settled = false;
    let detach: (() => void) | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      detach?.();
      outcome();
    };
    const fail = (error: unknown) =>
      finish(() =>
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })),
      );
    const headers = headerRecord(init.headers);
    if (body !== undefined && body !== null)
      headers['content-length'] = String(Buffer.byteLength(body));
    const request = transport.request(
      url,
      { method: init.method ?? 'GET', headers, agent: AGENTS[url.protocol as keyof typeof AGENTS] },
      (response) =>
        bufferReply(response, url, request, caps, {
          fail,
          resolve: (reply) => finish(() => resolve(reply)),
        }),
    );
    detach = signal
      ? onAbort(signal, () => {
          request.destroy();
          finish(() => reject(signal.reason));
        })
      : undefined;
    request.on('error', fail);
    request.end(body ?? undefined);
  });
}

/** Buffers a reply, capped at the reply limit, into the Response the adapters read. */
function bufferReply(
  response: http.IncomingMessage,
  url: URL,
  request: http.ClientRequest,
  caps: ReplyCaps,
  done: { fail: (error: unknown) => void; resolve: (reply: Response) => void },
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const overCap = () => {
    const cap = `${formatBytes(caps.replyBytes)} (the cap, ${LIMIT_VARIABLES.replyBytes})`;
    done.fail(tooLarge(`the reply is larger than ${cap}`));
    request.destroy();
  };
  if (Number(response.headers['content-length']) > caps.replyBytes) return overCap();
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > caps.replyBytes) overCap();
    else chunks.push(chunk);
  });
  response.on('error', done.fail);
  response.on('close', () => {
    if (!response.complete)
      return done.fail(new Error('the connection closed before the whole reply arrived'));
    const status = response.statusCode ?? 0;
    try {
      const bytes = decode(Buffer.concat(chunks), response.headers['content-encoding'], caps);
      const reply = new BufferedResponse({
        status,
        statusText: response.statusMessage ?? '',
        headers: headerPairs(response.rawHeaders),
        bytes: NULL_BODY_STATUS.has(status) ? null : bytes,
        url: url.href,
      });
      // The subset of Response the adapters use (buffered-response.ts), at a fraction of its cost.
      done.resolve(reply as unknown as Response);
    } catch (error) {
      done.fail(error);
    }
  });
}
