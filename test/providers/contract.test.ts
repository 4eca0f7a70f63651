/** The Provider contract, run over real HTTP against the loopback fake server for every vendor adapter. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { PROVIDERS } from '../../src/providers/model-spec.js';
import type { Provider, ProviderRequest } from '../../src/providers/provider.js';
import {
  ADAPTERS,
  buildProviderStack,
  type ProviderStackOptions,
} from '../../src/providers/registry.js';
import { replies, startFakeServer, type FakeReply, type FakeServer } from '../fake-server/index.js';
import {
  ADAPTER_CASES,
  imageFile,
  JPEG_BYTES,
  makeRequest,
  PNG_BYTES,
  TEST_KEY,
  type AdapterCase,
} from './helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({ requireKey: TEST_KEY });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Every error message seen in this file, checked for the key at the end. */
const messages: string[] = [];

async function failure(
  provider: Provider,
  request: ProviderRequest = makeRequest(),
  signal?: AbortSignal,
): Promise<ProviderError> {
  const error = await provider.generate(request, signal).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  messages.push((error as ProviderError).message);
  return error as ProviderError;
}

describe.each(ADAPTER_CASES)('Provider contract: $provider', (adapter: AdapterCase) => {
  const raw = (key = TEST_KEY) =>
    ADAPTERS[adapter.provider]({
      model: adapter.model,
      apiKey: key,
      baseUrl: server.baseUrl(adapter.wire),
    });
  const stack = (options: ProviderStackOptions = {}) =>
    buildProviderStack(`${adapter.provider}:${adapter.model}`, {
      baseUrl: server.baseUrl(adapter.wire),
      env: { [PROVIDERS[adapter.provider].keyEnv[0]]: TEST_KEY },
      ...options,
    });

  it('returns text, usage, finish reason and latency, and sends system and user text to the model', async () => {
    server.enqueue(replies.text('the plan', { usage: { inputTokens: 42, outputTokens: 7 } }));
    const result = await raw().generate(makeRequest());
    expect(result).toMatchObject({
      text: 'the plan',
      finishReason: 'stop',
      attempts: 1,
      cached: false,
    });
    expect(result.usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const parsed = server.requests[0]?.parsed;
    expect(parsed?.model).toBe(adapter.model);
    expect(parsed?.messages.map((message) => [message.role, message.text])).toEqual([
      ['system', 'You are a planner.'],
      ['user', 'CASE-1: plan how to open the file'],
    ]);
    expect(parsed?.temperature).toBe(0);
  });

  it('maps a length cut to finishReason "length" and returns prose and fenced JSON verbatim', async () => {
    server.enqueue(
      replies.lengthCut('{"plan": ["a'),
      replies.prose('I would search first.'),
      replies.fencedJson({ plan: [1] }),
    );
    const provider = raw();
    expect(await provider.generate(makeRequest())).toMatchObject({
      text: '{"plan": ["a',
      finishReason: 'length',
    });
    expect((await provider.generate(makeRequest({ json: true }))).text).toBe(
      'I would search first.',
    );
    expect((await provider.generate(makeRequest({ json: true }))).text).toContain('```json');
  });

  it('sends image parts with their MIME type, sniffing it when the dataset did not know it', async () => {
    const png = imageFile('shot.png', PNG_BYTES, 'image/png');
    const jpeg = imageFile('photo.jpg', JPEG_BYTES, 'image/jpeg');
    const unlabelled = imageFile('frame.bin', PNG_BYTES, 'application/octet-stream');
    const request = makeRequest({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'Look:' },
            { type: 'image', file: png },
            { type: 'image', file: jpeg },
            { type: 'image', file: unlabelled },
          ],
        },
      ],
    });
    await raw().generate(request);
    const images = server.requests[0]?.parsed?.messages[0]?.images;
    expect(images?.map((image) => image.mimeType)).toEqual([
      'image/png',
      'image/jpeg',
      'image/png',
    ]);
    expect(images?.map((image) => image.sha256)).toEqual([
      png.sha256,
      jpeg.sha256,
      unlabelled.sha256,
    ]);
  });

  it('fails a missing image file as a non-retryable client error naming the file', async () => {
    const missing = {
      ...imageFile('gone.png', PNG_BYTES, 'image/png'),
      absolutePath: '/nonexistent/gone.png',
    };
    const error = await failure(
      raw(),
      makeRequest({ messages: [{ role: 'user', parts: [{ type: 'image', file: missing }] }] }),
    );
    expect(error).toMatchObject({ kind: 'client', retryable: false });
    expect(error.message).toContain('/nonexistent/gone.png');
    expect(server.count()).toBe(0);
  });

  it(`${adapter.json ? 'asks for' : 'does not ask for'} a JSON reply when the request wants one`, async () => {
    const provider = raw();
    await provider.generate(makeRequest({ json: true }));
    await provider.generate(makeRequest({ json: false }));
    expect(server.requests.map((request) => request.parsed?.jsonMode)).toEqual([
      adapter.json,
      false,
    ]);
  });

  it.runIf(adapter.json)(
    'falls back once without JSON mode when the endpoint rejects the option with a 400 naming it',
    async () => {
      server.configure({ rejectJsonMode: true });
      const provider = raw();
      const first = await provider.generate(makeRequest({ json: true }));
      expect(first).toMatchObject({ text: 'ok', attempts: 2 });
      expect(first.warnings?.join(' ')).toContain('JSON reply mode rejected');
      expect(server.requests.map((request) => request.parsed?.jsonMode)).toEqual([true, false]);
      const second = await provider.generate(makeRequest({ json: true }));
      expect(second.attempts).toBe(1);
      expect(server.count()).toBe(3);
    },
  );

  it('does not fall back on a 400 that does not name the JSON option', async () => {
    server.enqueue(replies.status(400, 'messages: too long'));
    expect(await failure(raw(), makeRequest({ json: true }))).toMatchObject({
      kind: 'client',
      retryable: false,
      status: 400,
    });
    expect(server.count()).toBe(1);
  });

  const faults: Array<[string, FakeReply, Partial<ProviderError>]> = [
    [
      '429',
      replies.rateLimited({ retryAfter: '3' }),
      { kind: 'rate-limit', retryable: true, status: 429, retryAfterMs: 3000 },
    ],
    [
      '429 with retry-after-ms',
      replies.rateLimited({ retryAfter: '9', retryAfterMs: 250 }),
      { kind: 'rate-limit', retryable: true, retryAfterMs: 250 },
    ],
    ['500', replies.status(500), { kind: 'server', retryable: true, status: 500 }],
    ['503', replies.status(503), { kind: 'server', retryable: true, status: 503 }],
    ['408', replies.status(408), { kind: 'timeout', retryable: true, status: 408 }],
    ['409', replies.status(409), { kind: 'server', retryable: true, status: 409 }],
    ['400', replies.status(400), { kind: 'client', retryable: false, status: 400 }],
    ['404', replies.status(404), { kind: 'client', retryable: false, status: 404 }],
    ['422', replies.status(422), { kind: 'client', retryable: false, status: 422 }],
    ['401', replies.status(401), { kind: 'auth', retryable: false, status: 401 }],
    ['403', replies.status(403), { kind: 'auth', retryable: false, status: 403 }],
    ['connection reset', replies.reset(), { kind: 'network', retryable: true }],
    ['garbage body', replies.garbage(), { kind: 'bad-response', retryable: true }],
    ['wrong-shape JSON body', { body: { unexpected: true } }, { retryable: true }],
  ];
  it.each(faults)('classifies %s', async (_name, reply, expected) => {
    server.enqueue(reply);
    // The Gemini schema has no required field, so the SDK reads an unexpected body as an empty reply.
    if (adapter.wire === 'gemini' && 'body' in reply)
      return expect((await raw().generate(makeRequest())).text).toBe('');
    expect(await failure(raw(), makeRequest())).toMatchObject(expected);
  });

  it('classifies a truncated body as retryable', async () => {
    server.enqueue(replies.truncated());
    const error = await failure(raw());
    expect(error.retryable).toBe(true);
    expect(['network', 'bad-response']).toContain(error.kind);
  });

  it('retries with the Retry-After delays, counting attempts', async () => {
    const waits: number[] = [];
    server.enqueue(
      replies.rateLimited({ retryAfter: '2' }),
      replies.rateLimited({ retryAfterMs: 150 }),
      replies.status(503),
      replies.text('done'),
    );
    const provider = stack({
      maxRetries: 3,
      retry: { sleep: async (ms) => void waits.push(ms), random: () => 0.5, baseDelayMs: 100 },
    });
    const result = await provider.generate(makeRequest());
    expect(result).toMatchObject({ text: 'done', attempts: 4 });
    // The third wait is full-jitter backoff: 0.5 × min(cap, 100 ms × 2²).
    expect(waits).toEqual([2000, 150, 200]);
    expect(server.count()).toBe(4);
  });

  it('really waits for Retry-After', async () => {
    server.enqueue(replies.rateLimited({ retryAfterMs: 300 }), replies.text('late'));
    const started = performance.now();
    const result = await stack({ maxRetries: 1 }).generate(makeRequest());
    expect(result.text).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('stops after max retries with the last error', async () => {
    server.enqueue(
      replies.status(503),
      replies.status(503),
      replies.status(503),
      replies.status(503),
    );
    const error = await failure(stack({ maxRetries: 2, retry: { sleep: async () => undefined } }));
    expect(error).toMatchObject({ kind: 'server', status: 503 });
    expect(error.message).toContain('gave up after 3 attempts');
    expect(server.count()).toBe(3);
  });

  it('fails fast on a bad key (401, no retry) without echoing the key', async () => {
    const wrongKey = 'sk-wrong-key-9876543210zyxwvu';
    const provider = buildProviderStack(`${adapter.provider}:${adapter.model}`, {
      baseUrl: server.baseUrl(adapter.wire),
      env: { [PROVIDERS[adapter.provider].keyEnv[0]]: wrongKey },
      maxRetries: 5,
    });
    const error = await failure(provider);
    expect(error).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    expect(server.count()).toBe(1);
    expect(server.requests[0]?.rawBody).not.toContain(wrongKey);
    expect(error.message).not.toContain(wrongKey);
    expect(error.message).not.toContain('9876543210');
    expect((error.cause as Error).message).not.toContain('9876543210');
  });

  it('times out a hanging request as a retryable timeout, and an abort as a non-retryable one', async () => {
    server.enqueue(replies.hang());
    const timedOut = await failure(stack({ timeoutMs: 150, maxRetries: 0 }));
    expect(timedOut).toMatchObject({ kind: 'timeout', retryable: true });
    server.enqueue(replies.hang());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(
      await failure(stack({ timeoutMs: 10_000, maxRetries: 3 }), makeRequest(), controller.signal),
    ).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('sends the key on every request and never in a body', async () => {
    server.enqueue(replies.status(500), replies.text('a'), replies.text('b'));
    const provider = stack({ maxRetries: 2, retry: { sleep: async () => undefined } });
    await provider.generate(makeRequest());
    await provider.generate(makeRequest({ json: true }));
    expect(server.count()).toBe(3);
    for (const request of server.requests) {
      expect(adapter.sentKey(request.headers)).toBe(TEST_KEY);
      expect(request.rawBody).not.toContain(TEST_KEY);
      expect(request.query).not.toContain(TEST_KEY);
    }
  });
});

describe('error messages', () => {
  it('never contain the API key', () => {
    expect(messages.length).toBeGreaterThan(20);
    for (const message of messages) {
      expect(message).not.toContain(TEST_KEY);
      expect(message).not.toMatch(/0123456789abcdef/);
    }
  });
});
