/**
 * A request apb serve does not answer with a reply, and how each API says so. An upstream failure keeps its
 * meaning: a rejected key is the client's 401 (its SDK raises its authentication error and does not retry), a
 * 403 stays 403, an unknown model 404, a rate limit 429 with the upstream's `Retry-After`, a server failure its
 * 5xx. The body is in the error shape of the API the client spoke (OpenAI's or Anthropic's).
 */
import { ProviderError } from '../errors.js';
import { redact } from '../redact.js';

/** What a failure means, independent of the API that reports it. */
export type FailureKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'rate_limit'
  | 'insufficient_quota'
  | 'storage'
  | 'timeout'
  | 'server';

/** A failed request: its HTTP status, kind, message and extra headers (`Retry-After`). */
export interface ServeFailure {
  status: number;
  kind: FailureKind;
  message: string;
  headers?: Record<string, string>;
}

/** The failure a client is told about for an upstream failure. */
export function upstreamFailure(error: ProviderError): ServeFailure {
  const message = redact(error.message);
  const status = error.status;
  switch (error.kind) {
    case 'auth':
      return status === 403
        ? { status, kind: 'permission', message }
        : { status: 401, kind: 'authentication', message };
    case 'rate-limit': {
      const seconds =
        error.retryAfterMs !== undefined ? Math.max(0, Math.ceil(error.retryAfterMs / 1000)) : null;
      return {
        status: 429,
        kind: 'rate_limit',
        message,
        ...(seconds !== null
          ? {
              headers: {
                'retry-after': String(seconds),
                'retry-after-ms': String(Math.round(error.retryAfterMs!)),
              },
            }
          : {}),
      };
    }
    case 'client':
      if (status === 404) return { status, kind: 'not_found', message };
      return { status: status ?? 400, kind: 'invalid_request', message };
    case 'timeout':
      return { status: 504, kind: 'timeout', message };
    case 'server':
      return { status: status ?? 502, kind: 'server', message };
    default:
      return { status: 502, kind: 'server', message };
  }
}

const OPENAI_TYPES: Record<FailureKind, [type: string, code: string | null]> = {
  invalid_request: ['invalid_request_error', null],
  authentication: ['invalid_request_error', 'invalid_api_key'],
  permission: ['invalid_request_error', 'permission_denied'],
  not_found: ['invalid_request_error', 'model_not_found'],
  rate_limit: ['requests', 'rate_limit_exceeded'],
  insufficient_quota: ['insufficient_quota', 'insufficient_quota'],
  storage: ['server_error', 'insufficient_storage'],
  timeout: ['server_error', 'timeout'],
  server: ['server_error', null],
};

const ANTHROPIC_TYPES: Record<FailureKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  rate_limit: 'rate_limit_error',
  insufficient_quota: 'rate_limit_error',
  storage: 'api_error',
  timeout: 'api_error',
  server: 'api_error',
};

/** OpenAI's error object. */
export function openaiError(
  failure: Pick<ServeFailure, 'kind' | 'message'>,
): Record<string, unknown> {
  const [type, code] = OPENAI_TYPES[failure.kind];
  return { error: { message: failure.message, type, param: null, code } };
}

/** Anthropic's error object. */
export function anthropicError(
  failure: Pick<ServeFailure, 'kind' | 'message'>,
): Record<string, unknown> {
  return {
    type: 'error',
    error: { type: ANTHROPIC_TYPES[failure.kind], message: failure.message },
  };
}
