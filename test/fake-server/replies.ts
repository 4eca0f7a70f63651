/** What the fake server can be told to answer, and helpers that build each kind of reply or fault. */
import { mulberry32 } from '../../src/construction/random.js';

/** A fault that is not an HTTP status: the socket or body misbehaves. */
export type TransportFault = 'reset' | 'truncate' | 'garbage' | 'hang';

/** One reply. With no `status` and no `fault` it is a 200 success carrying `text`. */
export interface FakeReply {
  /** HTTP status; non-2xx gets an error body in the wire's format with `message`. */
  status?: number;
  /** Reply text for a success (default `ok`, or empty when the reply calls tools). */
  text?: string;
  /** Tool calls the reply makes (ids default to `call_<request>_<n>`; string arguments are sent verbatim). */
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
  /** Error message for a non-2xx status. */
  message?: string;
  finishReason?: 'stop' | 'length';
  usage?: { inputTokens: number; outputTokens: number };
  headers?: Record<string, string>;
  /** A raw body that replaces the rendered one (string sent as is, object as JSON). */
  body?: string | Record<string, unknown>;
  fault?: TransportFault;
  /** Send the rendered body gzip-compressed (`content-encoding: gzip`). */
  gzip?: boolean;
  /** Delay before answering, overriding the server's latency. */
  delayMs?: number;
}

/** Builders for every reply kind the tests need. */
export const replies = {
  text: (text: string, extra: Partial<FakeReply> = {}): FakeReply => ({ text, ...extra }),
  json: (value: unknown): FakeReply => ({ text: JSON.stringify(value) }),
  toolCalls: (...calls: Array<{ name: string; arguments: unknown; id?: string }>): FakeReply => ({
    text: '',
    toolCalls: calls,
  }),
  fencedJson: (value: unknown): FakeReply => ({
    text: `Here is the plan:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``,
  }),
  prose: (
    text = 'I would first search for the file, then open it and summarise it.',
  ): FakeReply => ({ text }),
  lengthCut: (text = '{"plan": ["step 1", "st'): FakeReply => ({ text, finishReason: 'length' }),
  rateLimited: (options: { retryAfter?: string; retryAfterMs?: number } = {}): FakeReply => ({
    status: 429,
    message: 'Rate limit reached, please retry later',
    headers: {
      ...(options.retryAfter !== undefined ? { 'retry-after': options.retryAfter } : {}),
      ...(options.retryAfterMs !== undefined
        ? { 'retry-after-ms': String(options.retryAfterMs) }
        : {}),
    },
  }),
  status: (
    status: number,
    message = `fake error ${status}`,
    headers: Record<string, string> = {},
  ): FakeReply => ({ status, message, headers }),
  reset: (): FakeReply => ({ fault: 'reset' }),
  truncated: (): FakeReply => ({ fault: 'truncate' }),
  garbage: (): FakeReply => ({ fault: 'garbage' }),
  hang: (): FakeReply => ({ fault: 'hang' }),
};

/** Random fault injection: with probability `rate` a request gets one of `kinds` (seeded, so runs repeat). */
export interface RandomFaults {
  rate: number;
  kinds: Array<TransportFault | 429 | 500 | 503>;
  seed?: number;
}

/** A small seeded PRNG (the project's mulberry32), so random faults are reproducible. */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed);
}

/** The reply for a randomly drawn fault kind. */
export function faultReply(kind: RandomFaults['kinds'][number]): FakeReply {
  if (kind === 429) return replies.rateLimited({ retryAfterMs: 10 });
  if (typeof kind === 'number') return replies.status(kind);
  return { fault: kind };
}
