import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { FakeProvider } from './fake-provider.js';
import { partsOf, type ProviderRequest } from './provider.js';

const request = (text: string): ProviderRequest => ({
  messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
  promptVersion: 'v',
  json: true,
  sampling: {},
  repeat: 0,
  role: 'judge',
});

describe('FakeProvider', () => {
  it('plays its script in order, then the fallback, recording requests', async () => {
    const error = new ProviderError({
      provider: 'fake:x',
      kind: 'server',
      retryable: true,
      message: 'down',
    });
    const fake = new FakeProvider({
      id: 'fake:x',
      script: [
        { text: 'one', usage: null, finishReason: 'length' },
        { error },
        (incoming) => ({ text: `echo ${incoming.messages.length}` }),
      ],
      fallback: { text: 'again' },
    });
    expect(await fake.generate(request('a'))).toMatchObject({
      text: 'one',
      usage: null,
      finishReason: 'length',
      attempts: 1,
      cached: false,
    });
    await expect(fake.generate(request('b'))).rejects.toBe(error);
    expect((await fake.generate(request('c'))).text).toBe('echo 1');
    expect((await fake.generate(request('d'))).text).toBe('again');
    expect(fake.requests.map((recorded) => partsOf(recorded.messages[0]!)[0])).toEqual(
      ['a', 'b', 'c', 'd'].map((text) => ({ type: 'text', text })),
    );
  });

  it('throws when the script runs out and there is no fallback', async () => {
    await expect(new FakeProvider().generate(request('x'))).rejects.toThrow('script exhausted');
  });
});
