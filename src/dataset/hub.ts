/**
 * Talking to a Hugging Face hub for `apb data prepare`: every request goes through `hubFetch`,
 * which sends the token only to the `HF_ENDPOINT` origin (redirects are followed by hand, so a
 * redirect to a CDN or another host never carries it), gives up on a body that stalls, and
 * caps redirects. `listFiles` reads the paginated file listing: a page cap, loop detection, the
 * token kept off next-links to other origins, and a listing that is not the hub's JSON list of
 * files (an HTML error page, an object) is a clear error naming the URL.
 */
import { z } from 'zod';
import { ApbError } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import type { Limits } from '../limits.js';
import { redact } from '../redact.js';

/** How to reach the hub. */
export interface HubOptions {
  /** Hub endpoint (HF_ENDPOINT), e.g. https://huggingface.co or a mirror. */
  endpoint: string;
  /** HF_TOKEN, for gated or private copies: sent to the endpoint's origin only. */
  token?: string;
  fetch?: typeof globalThis.fetch;
  /** A body that sends nothing for this long is abandoned (default 30 s). */
  stallMs?: number;
  /** The caps listings (JSON nesting) and archives (`prepare`) are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits;
  /** Most listing pages read (default 1,000). */
  maxPages?: number;
  /**
   * The slowest body accepted, in bytes per second averaged over `rateWindowMs` (default 1 KiB/s
   * over 60 s): a server that drips a byte a second never stalls, so the stall guard alone would
   * let it hold the download for days.
   */
  minBytesPerSecond?: number;
  rateWindowMs?: number;
  /** The instant (ms since the epoch) everything must be done by; past it, a body is abandoned. */
  deadlineAt?: number;
}

/** One file of the listing; `lfs.oid` is the file's sha256, `oid` its git blob id. */
export const TreeEntrySchema = z.object({
  type: z.string(),
  path: z.string(),
  size: z.number().int().nonnegative().optional(),
  oid: z.string().optional(),
  lfs: z
    .object({ oid: z.string(), size: z.number().int().nonnegative().optional() })
    .partial()
    .optional(),
});
export type TreeEntry = z.infer<typeof TreeEntrySchema>;

const MAX_REDIRECTS = 10;
const DEFAULT_STALL_MS = 30_000;
const DEFAULT_MIN_BYTES_PER_SECOND = 1024;
const DEFAULT_RATE_WINDOW_MS = 60_000;

/** A failed exchange with the hub, worded for the terminal (exit 1). */
export function hubError(message: string): ApbError {
  return new ApbError('download', message);
}

/** `fetch` with the token policy, manual redirects and a stall guard on the response headers. */
export async function hubFetch(
  url: string,
  options: HubOptions,
  signal?: AbortSignal,
): Promise<Response> {
  const origin = new URL(options.endpoint).origin;
  const secrets = options.token ? [options.token] : [];
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const sameOrigin = new URL(current).origin === origin;
    const headers: Record<string, string> =
      options.token && sameOrigin ? { authorization: `Bearer ${options.token}` } : {};
    let response: Response;
    try {
      response = await withStall(options, signal, (inner) =>
        (options.fetch ?? fetch)(current, { headers, redirect: 'manual', signal: inner }),
      );
    } catch (error) {
      throw hubError(
        `cannot reach ${new URL(current).origin}: ${redact((error as Error).message, secrets)}`,
      );
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel();
    current = new URL(location, current).toString();
  }
  throw hubError(`more than ${MAX_REDIRECTS} redirects from ${url}`);
}

/** Runs `start` with a signal that aborts when nothing arrives for `stallMs`. */
async function withStall<T>(
  options: HubOptions,
  outer: AbortSignal | undefined,
  start: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const timer = setTimeout(
    () => controller.abort(new Error(`no answer for ${stallMs / 1000} s`)),
    stallMs,
  );
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  try {
    return await start(signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Watches a body's pace: too slow over a window (`minBytesPerSecond`) or past the overall
 * deadline is an error naming what was being read.
 */
function paceGuard(what: string, options: HubOptions): (bytes: number) => void {
  const minRate = options.minBytesPerSecond ?? DEFAULT_MIN_BYTES_PER_SECOND;
  const windowMs = options.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS;
  let windowStart = Date.now();
  let windowBytes = 0;
  return (bytes) => {
    const now = Date.now();
    if (options.deadlineAt !== undefined && now > options.deadlineAt)
      throw hubError(`${what}: past the overall deadline (--deadline-ms); stopped`);
    windowBytes += bytes;
    const elapsed = now - windowStart;
    if (elapsed < windowMs) return;
    const rate = (windowBytes * 1000) / elapsed;
    if (rate < minRate)
      throw hubError(
        `${what}: too slow (${rate.toFixed(1)} bytes/s over ${(elapsed / 1000).toFixed(1)} s, ` +
          `the minimum is ${minRate}; --min-rate to change it)`,
      );
    windowStart = now;
    windowBytes = 0;
  };
}

/** How long the next read may wait: the stall time, or less when the deadline comes first. */
function readWait(options: HubOptions): number {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  if (options.deadlineAt === undefined) return stallMs;
  return Math.max(0, Math.min(stallMs, options.deadlineAt - Date.now()));
}

/**
 * The chunks of a response body, abandoned when none arrives for `stallMs`, when they come slower
 * than the minimum rate, or past the overall deadline.
 */
export async function* bodyChunks(
  response: Response,
  what: string,
  options: HubOptions,
): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const pace = paceGuard(what, options);
  try {
    for (;;) {
      const wait = readWait(options);
      const why =
        wait < stallMs
          ? `${what}: past the overall deadline (--deadline-ms); stopped`
          : `${what}: the download stalled (nothing for ${stallMs / 1000} s)`;
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(hubError(why)), wait)),
      );
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) return;
        pace(value.length);
        yield value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The whole body as text, within `maxBytes` and the stall guard. */
export async function bodyText(
  response: Response,
  what: string,
  options: HubOptions,
  maxBytes: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of bodyChunks(response, what, options)) {
    total += chunk.length;
    if (total > maxBytes)
      throw hubError(`${what}: more than ${maxBytes} bytes; not a file listing`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An HTTP failure of the hub, with a hint for the usual causes. */
export function httpFailure(response: Response, what: string): ApbError {
  const hint =
    response.status === 401 || response.status === 403
      ? ' (set HF_TOKEN if the dataset is gated)'
      : response.status === 404
        ? ' (check --repo and --revision)'
        : '';
  return hubError(`${what}: HTTP ${response.status} ${response.statusText}${hint}`);
}

/** Reads one listing page: a JSON array of entries, or a clear error naming the URL. */
async function listingPage(
  response: Response,
  url: string,
  options: HubOptions,
): Promise<TreeEntry[]> {
  const text = await bodyText(response, `listing ${url}`, options, 64 * 1024 * 1024);
  const kind = response.headers.get('content-type') ?? 'no content type';
  let value: unknown;
  try {
    value = parseUntrustedJson(text, options.limits?.jsonDepth);
  } catch {
    throw hubError(
      `listing ${url} is not the hub's JSON list of files (got ${kind}: ${JSON.stringify(text.slice(0, 80))}); check HF_ENDPOINT`,
    );
  }
  if (!Array.isArray(value))
    throw hubError(
      `listing ${url} is not a JSON array of files (got ${value === null ? 'null' : typeof value}); check HF_ENDPOINT`,
    );
  return value.map((item, index) => {
    const parsed = TreeEntrySchema.safeParse(item);
    if (!parsed.success)
      throw hubError(
        `listing ${url}: entry ${index + 1} is not a file entry (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      );
    return parsed.data;
  });
}

/** Lists a dataset repository's files, following the hub's `Link: rel="next"` pagination safely. */
export async function listFiles(
  options: HubOptions & { repo: string; revision: string },
): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const seen = new Set<string>();
  const maxPages = options.maxPages ?? 1000;
  let url: string | null =
    `${options.endpoint}/api/datasets/${options.repo}/tree/${encodeURIComponent(options.revision)}?recursive=true`;
  while (url) {
    if (seen.has(url)) throw hubError(`the listing's pages loop: ${url} was already read`);
    if (seen.size >= maxPages)
      throw hubError(`the listing has more than ${maxPages} pages; stopped`);
    seen.add(url);
    const response = await hubFetch(url, options);
    if (!response.ok) throw httpFailure(response, `listing ${options.repo}@${options.revision}`);
    entries.push(...(await listingPage(response, url, options)));
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
    url = next ? new URL(next[1]!, url).toString() : null;
  }
  return entries;
}
