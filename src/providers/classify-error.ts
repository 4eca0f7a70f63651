/** Turns whatever an SDK call threw into a `ProviderError` (kind, retryable, retryAfterMs), with a redacted message. */
import { ProviderError } from '../errors.js';
import { redact } from '../redact.js';
import { REPLY_TOO_LARGE } from './node-fetch.js';

type Kind = ProviderError['kind'];

/** What we read of the AI SDK's `APICallError`. */
interface ApiCallError extends Error {
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}

// The SDK's own `isInstance` checks are these symbol markers; testing them here spares loading the whole `ai` package.
const hasMarker = (error: unknown, marker: string) =>
  error !== null &&
  typeof error === 'object' &&
  (error as Record<symbol, unknown>)[Symbol.for(marker)] === true;
const isSdkError = (error: unknown): error is Error => hasMarker(error, 'vercel.ai.error');
const isApiCallError = (error: unknown): error is ApiCallError =>
  hasMarker(error, 'vercel.ai.error.AI_APICallError');

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const NETWORK_MESSAGES =
  /terminated|fetch failed|socket hang up|other side closed|premature close|network/i;
const MAX_MESSAGE_LENGTH = 600;

/** What the classifier needs besides the error. */
export interface ClassifyContext {
  /** `vendor:model`, the `provider` of the resulting error. */
  provider: string;
  /** The caller's signal: once aborted, any failure is `aborted` (a timeout decorator turns it into `timeout`). */
  signal?: AbortSignal;
  /** Secrets to mask besides the registered ones. */
  secrets?: readonly string[];
  /** Clock for HTTP-date `retry-after` values. */
  now?: number;
}

/**
 * Classifies at the edge: 408/409/429/5xx, network failures and unreadable bodies retry; other 4xx
 * do not; 401/403 are `auth`.
 */
export function classifyError(error: unknown, context: ClassifyContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const make = (
    kind: Kind,
    retryable: boolean,
    message: string,
    extra: { status?: number; retryAfterMs?: number } = {},
  ) =>
    new ProviderError({
      provider: context.provider,
      kind,
      retryable,
      message: clean(`${context.provider}: ${message}`, context),
      cause: safeCause(error, context),
      ...extra,
    });

  if (context.signal?.aborted) return make('aborted', false, 'request aborted');
  const oversize = findCode(error, REPLY_TOO_LARGE);
  if (oversize) return make('bad-response', false, messageOf(oversize));
  const apiError = findApiError(error);
  if (apiError) {
    const status = apiError.statusCode;
    const retryAfterMs = parseRetryAfter(apiError.responseHeaders, context.now ?? Date.now());
    const detail = describeApiError(apiError);
    if (status === undefined) return make('network', true, `connection failed: ${detail}`);
    const extra = { status, retryAfterMs };
    if (status === 401 || status === 403)
      return make('auth', false, `HTTP ${status} (check the API key): ${detail}`, { status });
    if (status === 429) return make('rate-limit', true, `HTTP 429 rate limited: ${detail}`, extra);
    if (status === 408) return make('timeout', true, `HTTP 408: ${detail}`, extra);
    if (status === 409 || status >= 500)
      return make('server', true, `HTTP ${status}: ${detail}`, extra);
    if (status >= 200 && status < 300) {
      const kind = isNetworkFailure(apiError.cause) ? 'network' : 'bad-response';
      return make(kind, true, `unreadable reply: ${detail}`, { status });
    }
    return make('client', false, `HTTP ${status}: ${detail}`, { status });
  }
  if (isAbortLike(error)) return make('timeout', true, 'request timed out');
  if (isNetworkFailure(error))
    return make('network', true, `connection failed: ${messageOf(error)}`);
  if (isSdkError(error)) {
    // Response-shape errors (no content, invalid data, JSON parse) are transient server
    // misbehaviour; the rest are our request.
    const transient =
      /NoContentGenerated|InvalidResponseData|JSONParse|TypeValidation|EmptyResponseBody/.test(
        error.name,
      );
    return make(transient ? 'bad-response' : 'client', transient, messageOf(error));
  }
  throw error;
}

/** True when a 400 reply names the JSON reply option, so the call may be retried once without it. */
export function rejectsJsonMode(error: unknown): boolean {
  const apiError = findApiError(error);
  if (!apiError || apiError.statusCode !== 400) return false;
  const text = `${apiError.message} ${apiError.responseBody ?? ''}`;
  return /response_format|responseMimeType|response_mime_type|json_object|json mode|response format/i.test(
    text,
  );
}

/**
 * `retry-after-ms`, then `retry-after` (seconds or an HTTP date), in milliseconds; undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(
  headers: Record<string, string | undefined> | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const milliseconds = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = lower['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The first error in the cause chain with `code`. */
function findCode(error: unknown, code: string): unknown {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === code) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function findApiError(error: unknown): ApiCallError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (isApiCallError(current)) return current;
    const next = current as { lastError?: unknown; cause?: unknown };
    current = next.lastError ?? next.cause;
  }
  return undefined;
}

function describeApiError(error: ApiCallError): string {
  const body = error.responseBody?.trim();
  // The SDK's generic messages say little; a short body excerpt shows what the server actually sent.
  const generic =
    /^(Invalid JSON response|Failed to process|Bad Request|Internal Server Error|Service Unavailable|Too Many Requests|$)/i;
  const base = error.message || 'no message';
  const cause = error.cause ? ` (${messageOf(error.cause).slice(0, 200)})` : '';
  return body && generic.test(base) ? `${base}${cause}: ${body.slice(0, 200)}` : `${base}${cause}`;
}

function isNetworkFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && NETWORK_CODES.has(candidate.code)) return true;
    if (
      current instanceof TypeError &&
      typeof candidate.message === 'string' &&
      NETWORK_MESSAGES.test(candidate.message)
    )
      return true;
    current = candidate.cause;
  }
  return false;
}

function isAbortLike(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The SDK error keeps the response body and request values, which can echo a key: keep only a
// redacted name and message.
function safeCause(error: unknown, context: ClassifyContext): Error {
  const cause = new Error(clean(messageOf(error), context));
  const name = (error as { name?: unknown } | null)?.name;
  cause.name = typeof name === 'string' ? name : 'Error';
  return cause;
}

function clean(message: string, context: ClassifyContext): string {
  const redacted = redact(message, context.secrets ?? []).replace(/\s+/g, ' ');
  return redacted.length > MAX_MESSAGE_LENGTH
    ? `${redacted.slice(0, MAX_MESSAGE_LENGTH)}…`
    : redacted;
}
