import { describe, expect, it } from 'vitest';
import { FakeProvider } from './fake-provider.js';
import type { ProviderRequest } from './provider.js';
import { withTimeout } from './timeout.js';

const request: ProviderRequest = {
  messages: [],
  promptVersion: 'v',
  json: false,
  sampling: {},
  repeat: 0,
  role: 'planner',
};

describe('withTimeout', () => {
  it('turns a missed deadline into a retryable timeout', async () => {
    const provider = withTimeout(new FakeProvider({ delayMs: 5_000, fallback: { text: 'late' } }), {
      timeoutMs: 50,
    });
    await expect(provider.generate(request)).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
      message: 'fake:model: no reply within 50 ms',
    });
  });

  it('keeps the caller abort as aborted', async () => {
    const provider = withTimeout(new FakeProvider({ delayMs: 5_000, fallback: { text: 'late' } }), {
      timeoutMs: 10_000,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(provider.generate(request, controller.signal)).rejects.toMatchObject({
      kind: 'aborted',
      retryable: false,
    });
  });

  it('passes fast replies through', async () => {
    const provider = withTimeout(new FakeProvider({ fallback: { text: 'fast' } }), {
      timeoutMs: 1_000,
    });
    expect((await provider.generate(request)).text).toBe('fast');
  });
});
