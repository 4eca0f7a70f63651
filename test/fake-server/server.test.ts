/** The fake server itself: routes, recording, scripted and inspected replies, faults and latency, over plain fetch. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replies, startFakeServer, type FakeServer } from './index.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const openaiBody = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: text }],
  ...extra,
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('fake server', () => {
  it('listens on 127.0.0.1 and gives SDK base URLs per wire', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl('openai')).toBe(`${server.url}/v1`);
    expect(server.baseUrl('gemini')).toBe(`${server.url}/v1beta`);
  });

  it('speaks the three wire formats', async () => {
    const openai = JSON.parse((await post('/v1/chat/completions', openaiBody('hi'))).text);
    expect(openai.choices[0].message.content).toBe('ok');
    const anthropic = JSON.parse(
      (
        await post('/v1/messages', {
          model: 'claude',
          max_tokens: 5,
          messages: [{ role: 'user', content: 'hi' }],
        })
      ).text,
    );
    expect(anthropic).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
    });
    const gemini = JSON.parse(
      (
        await post('/v1beta/models/gemini-2.5-flash:generateContent', {
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        })
      ).text,
    );
    expect(gemini.candidates[0]).toMatchObject({
      content: { parts: [{ text: 'ok' }] },
      finishReason: 'STOP',
    });
    expect(server.requests[2]?.parsed).toMatchObject({
      wire: 'gemini',
      model: 'gemini-2.5-flash',
      text: 'hi',
    });
  });

  it('answers 404 on an unknown route and counts requests per path', async () => {
    expect((await post('/v1/embeddings', {})).status).toBe(404);
    await post('/v1/chat/completions', openaiBody('a'));
    await post('/v1/chat/completions', openaiBody('b'));
    expect(server.count('/v1/chat/completions')).toBe(2);
    expect(server.countsByPath()).toEqual({ '/v1/embeddings': 1, '/v1/chat/completions': 2 });
  });

  it('records headers and bodies', async () => {
    await post(
      '/v1/chat/completions',
      openaiBody('hello', { response_format: { type: 'json_object' } }),
      { authorization: 'Bearer sk-abc' },
    );
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer sk-abc');
    expect(request?.body).toMatchObject({ model: 'gpt-4o' });
    expect(request?.parsed?.jsonMode).toBe(true);
  });

  it('picks a reply by inspecting the request, after queued replies', async () => {
    server.configure({ respond: (request) => replies.text(`echo ${request.parsed?.text}`) });
    server.enqueue(replies.text('queued'));
    const first = JSON.parse((await post('/v1/chat/completions', openaiBody('one'))).text);
    const second = JSON.parse((await post('/v1/chat/completions', openaiBody('two'))).text);
    expect([first.choices[0].message.content, second.choices[0].message.content]).toEqual([
      'queued',
      'echo two',
    ]);
  });

  it('sends 429 with retry-after headers in the wire error format', async () => {
    server.enqueue(replies.rateLimited({ retryAfter: '2', retryAfterMs: 1500 }));
    const response = await post('/v1/messages', {
      model: 'claude',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
  });

  it('resets connections, truncates bodies and sends garbage', async () => {
    server.enqueue(replies.reset());
    await expect(post('/v1/chat/completions', openaiBody('x'))).rejects.toThrow();
    server.enqueue(replies.truncated());
    await expect(post('/v1/chat/completions', openaiBody('x'))).rejects.toThrow();
    server.enqueue(replies.garbage());
    const garbage = await post('/v1/chat/completions', openaiBody('x'));
    expect(garbage.status).toBe(200);
    expect(() => JSON.parse(garbage.text)).toThrow();
  });

  it('adds latency and tracks requests in flight', async () => {
    server.configure({ latencyMs: 120 });
    const started = performance.now();
    await Promise.all(
      [1, 2, 3].map((index) => post('/v1/chat/completions', openaiBody(String(index)))),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(server.maxInFlight).toBe(3);
    expect(server.inFlight).toBe(0);
  });

  it('injects random faults reproducibly from a seed', async () => {
    const run = async () => {
      server.reset();
      server.configure({ faults: { rate: 0.5, kinds: [500, 503], seed: 7 } });
      const statuses: number[] = [];
      for (let index = 0; index < 12; index++)
        statuses.push((await post('/v1/chat/completions', openaiBody('x'))).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first.some((status) => status >= 500)).toBe(true);
    expect(await run()).toEqual(first);
  });

  it('rejects a missing or wrong key with 401 when a key is required', async () => {
    server.configure({ requireKey: 'sk-right' });
    expect(
      (await post('/v1/chat/completions', openaiBody('x'), { authorization: 'Bearer sk-wrong' }))
        .status,
    ).toBe(401);
    expect(
      (
        await post(
          '/v1beta/models/m:generateContent',
          { contents: [] },
          { 'x-goog-api-key': 'sk-right' },
        )
      ).status,
    ).toBe(200);
  });
});
