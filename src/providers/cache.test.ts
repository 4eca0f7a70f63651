import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseFile } from '../dataset/case.js';
import { canonicalJson } from '../canonical-json.js';
import {
  cacheKey,
  cacheKeyDebugString,
  ResponseCache,
  withCache,
  type CacheScope,
} from './cache.js';
import { FakeProvider } from './fake-provider.js';
import type { ProviderRequest } from './provider.js';

const scope: CacheScope = {
  provider: 'openai',
  model: 'gpt-4o',
  baseUrl: 'https://api.openai.com/v1',
};
const image = (sha256: string, absolutePath = '/data/a.png'): CaseFile => ({
  path: 'a.png',
  absolutePath,
  kind: 'image',
  mimeType: 'image/png',
  label: null,
  sha256,
  bytes: 3,
});
const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  messages: [
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'plan' },
        { type: 'image', file: image('aaa') },
      ],
    },
  ],
  promptVersion: 'holistic@1',
  json: true,
  sampling: { temperature: 0, maxOutputTokens: 100 },
  repeat: 0,
  role: 'planner',
  ...overrides,
});
const tempFile = () =>
  path.join(mkdtempSync(path.join(tmpdir(), 'apb-cache-')), 'nested', 'cache.sqlite');

describe('cache key', () => {
  it('is stable under key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 2 }] })).toBe('{"a":[{"c":2}],"b":1}');
    expect(
      cacheKey(
        scope,
        request({ sampling: { maxOutputTokens: 100, temperature: 0, seed: undefined } }),
      ),
    ).toBe(cacheKey(scope, request()));
  });

  it.each([
    ['provider', { ...scope, provider: 'openai-compatible' }, request()],
    ['model', { ...scope, model: 'gpt-4o-mini' }, request()],
    ['base URL', { ...scope, baseUrl: 'http://localhost:8000/v1' }, request()],
    [
      'message text',
      scope,
      request({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'plan!' }] }] }),
    ],
    [
      'image content',
      scope,
      request({
        messages: [
          {
            role: 'user',
            parts: [
              { type: 'text', text: 'plan' },
              { type: 'image', file: image('bbb') },
            ],
          },
        ],
      }),
    ],
    ['json flag', scope, request({ json: false })],
    ['sampling', scope, request({ sampling: { temperature: 0.2, maxOutputTokens: 100 } })],
    [
      'provider options',
      scope,
      request({
        sampling: {
          temperature: 0,
          maxOutputTokens: 100,
          providerOptions: { openai: { reasoningEffort: 'high' } },
        },
      }),
    ],
    ['prompt version', scope, request({ promptVersion: 'holistic@2' })],
    ['repeat index', scope, request({ repeat: 1 })],
  ])('changes with the %s', (_name, otherScope, otherRequest) => {
    expect(cacheKey(otherScope, otherRequest)).not.toBe(cacheKey(scope, request()));
  });

  it('ignores the image path (only its hash counts) and the caller role', () => {
    const moved = request({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'plan' },
            { type: 'image', file: image('aaa', '/elsewhere/a.png') },
          ],
        },
      ],
    });
    expect(cacheKey(scope, moved)).toBe(cacheKey(scope, request()));
    expect(cacheKey(scope, request({ role: 'judge' }))).toBe(cacheKey(scope, request()));
  });

  it('has debug inputs that name what is hashed and hold no secret or transport knob', () => {
    const debug = cacheKeyDebugString(scope, request());
    for (const word of [
      '"schemaVersion":1',
      '"imageSha256":"aaa"',
      '"promptVersion":"holistic@1"',
      '"repeat":0',
      '"json":true',
    ])
      expect(debug).toContain(word);
    for (const word of ['apiKey', 'concurrency', 'retries', 'timeout', 'sk-', 'Bearer'])
      expect(debug).not.toContain(word);
  });
});

describe('withCache', () => {
  it('misses, stores, then hits with cached: true, 0 attempts, 0 latency and the stored usage', async () => {
    const cache = ResponseCache.open(tempFile());
    const inner = new FakeProvider({
      script: [
        {
          text: 'first',
          usage: { inputTokens: 11, outputTokens: 3 },
          latencyMs: 900,
          finishReason: 'length',
        },
      ],
    });
    const provider = withCache(inner, { cache, scope, enabled: true });
    const miss = await provider.generate(request());
    expect(miss).toMatchObject({ text: 'first', cached: false, latencyMs: 900 });
    const hit = await provider.generate(request());
    expect(hit).toEqual({
      text: 'first',
      usage: { inputTokens: 11, outputTokens: 3 },
      finishReason: 'length',
      latencyMs: 0,
      attempts: 0,
      cached: true,
    });
    expect(inner.requests).toHaveLength(1);
    expect(cache.size).toBe(1);
    cache.close();
  });

  it('keeps entries across reopen', async () => {
    const file = tempFile();
    const first = ResponseCache.open(file);
    await withCache(new FakeProvider({ script: [{ text: 'kept' }] }), {
      cache: first,
      scope,
      enabled: true,
    }).generate(request());
    first.close();
    const second = ResponseCache.open(file);
    expect(
      (
        await withCache(new FakeProvider(), { cache: second, scope, enabled: true }).generate(
          request(),
        )
      ).text,
    ).toBe('kept');
    second.close();
  });

  it('with enabled: false neither reads nor writes', async () => {
    const cache = ResponseCache.open(tempFile());
    await withCache(new FakeProvider({ script: [{ text: 'stored' }] }), {
      cache,
      scope,
      enabled: true,
    }).generate(request());
    const inner = new FakeProvider({ fallback: { text: 'fresh' } });
    const bypass = withCache(inner, { cache, scope, enabled: false });
    expect(await bypass.generate(request())).toMatchObject({ text: 'fresh', cached: false });
    await bypass.generate(request({ repeat: 5 }));
    expect(inner.requests).toHaveLength(2);
    expect(cache.size).toBe(1);
    cache.close();
  });

  it('does not store failures', async () => {
    const cache = ResponseCache.open(':memory:');
    const provider = withCache(
      new FakeProvider({
        script: [
          () => {
            throw new Error('down');
          },
          { text: 'ok' },
        ],
      }),
      { cache, scope, enabled: true },
    );
    await expect(provider.generate(request())).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect((await provider.generate(request())).text).toBe('ok');
  });

  it('serves two handles on one file, interleaved writes included', async () => {
    const file = tempFile();
    const a = ResponseCache.open(file);
    const b = ResponseCache.open(file);
    const writes = Array.from({ length: 50 }, (_, index) =>
      withCache(new FakeProvider({ fallback: { text: `r${index}` } }), {
        cache: index % 2 ? a : b,
        scope,
        enabled: true,
      }).generate(request({ repeat: index })),
    );
    await Promise.all(writes);
    expect(a.size).toBe(50);
    expect(
      (
        await withCache(new FakeProvider(), { cache: b, scope, enabled: true }).generate(
          request({ repeat: 7 }),
        )
      ).text,
    ).toBe('r7');
    a.close();
    b.close();
  });
});
