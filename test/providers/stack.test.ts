/**
 * The composed stack over real HTTP: model defaults on the wire, shared limits, cache before limit,
 * retries under random faults.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/providers/cache.js';
import { LimiterPool } from '../../src/providers/limit.js';
import { buildProviderStack, type ProviderStackOptions } from '../../src/providers/registry.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { makeRequest, TEST_KEY } from './helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const env = {
  OPENAI_API_KEY: TEST_KEY,
  GOOGLE_GENERATIVE_AI_API_KEY: TEST_KEY,
  ANTHROPIC_API_KEY: TEST_KEY,
};
const openai = (model: string, options: ProviderStackOptions = {}) =>
  buildProviderStack(`openai:${model}`, { baseUrl: server.baseUrl('openai'), env, ...options });

describe('provider stack', () => {
  it('sends the paper defaults: Gemini 2.5 Flash thinking budget 0, Gemini 3 Pro thinking level high', async () => {
    await buildProviderStack('google:gemini-2.5-flash', {
      baseUrl: server.baseUrl('gemini'),
      env,
    }).generate(makeRequest({ sampling: {} }));
    await buildProviderStack('google:gemini-3-pro-preview', {
      baseUrl: server.baseUrl('gemini'),
      env,
    }).generate(makeRequest({ sampling: {} }));
    const configs = server.requests.map((request) => request.body?.generationConfig);
    expect(configs[0]).toMatchObject({ temperature: 0, thinkingConfig: { thinkingBudget: 0 } });
    expect(configs[1]).toMatchObject({ temperature: 0, thinkingConfig: { thinkingLevel: 'high' } });
  });

  it('sends no temperature and max_completion_tokens to an OpenAI reasoning model', async () => {
    await openai('gpt-5').generate(makeRequest({ sampling: { maxOutputTokens: 2048 } }));
    await openai('gpt-4o').generate(makeRequest({ sampling: { maxOutputTokens: 2048 } }));
    const [gpt5, gpt4o] = server.requests.map((request) => request.body ?? {});
    expect(gpt5).not.toHaveProperty('temperature');
    expect(gpt5).not.toHaveProperty('max_tokens');
    expect(gpt5).toMatchObject({ max_completion_tokens: 2048 });
    expect(gpt4o).toMatchObject({ temperature: 0, max_tokens: 2048 });
  });

  it('shares one concurrency limit between stacks on the same endpoint', async () => {
    server.configure({ latencyMs: 40 });
    const limiters = new LimiterPool();
    const planner = openai('gpt-4o', { concurrency: 2, limiters });
    const judge = openai('gpt-4o-mini', { concurrency: 2, limiters });
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 ? planner : judge).generate(makeRequest({ repeat: index })),
      ),
    );
    expect(server.count()).toBe(8);
    expect(server.maxInFlight).toBe(2);
  });

  it('answers cache hits without waiting for a busy slot', async () => {
    const cache = ResponseCache.open(':memory:');
    const provider = openai('gpt-4o', { concurrency: 1, cache: { cache, enabled: true } });
    await provider.generate(makeRequest());
    server.enqueue(replies.text('slow', { delayMs: 1_000 }));
    const busy = provider.generate(makeRequest({ repeat: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const hit = await provider.generate(makeRequest());
    expect(performance.now() - started).toBeLessThan(200);
    expect(hit).toMatchObject({ cached: true, attempts: 0, latencyMs: 0 });
    await busy;
    expect(server.count()).toBe(2);
  });

  it('with the cache disabled calls the server every time', async () => {
    const cache = ResponseCache.open(':memory:');
    const provider = openai('gpt-4o', { cache: { cache, enabled: false } });
    await provider.generate(makeRequest());
    await provider.generate(makeRequest());
    expect(server.count()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('gets every answer through random 429s, 5xx, resets and truncated bodies', async () => {
    server.configure({
      faults: { rate: 0.4, kinds: [429, 500, 503, 'reset', 'truncate', 'garbage'], seed: 3 },
    });
    const provider = openai('gpt-4o', {
      concurrency: 4,
      maxRetries: 8,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => provider.generate(makeRequest({ repeat: index }))),
    );
    expect(results.every((result) => result.text === 'ok')).toBe(true);
    const attempts = results.reduce((sum, result) => sum + result.attempts, 0);
    expect(attempts).toBe(server.count());
    expect(attempts).toBeGreaterThan(20);
  });
});
