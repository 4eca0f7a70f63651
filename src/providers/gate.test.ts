import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { FakeProvider } from './fake-provider.js';
import { withGate, type CallGate } from './gate.js';
import type { ProviderRequest } from './provider.js';

const request: ProviderRequest = {
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  promptVersion: 'v',
  json: false,
  sampling: {},
  repeat: 0,
  role: 'planner',
};

function recordingGate(refuse = false): CallGate & { settled: Array<string | null> } {
  const settled: Array<string | null> = [];
  return {
    settled,
    admit() {
      if (refuse) throw new Error('refused');
      return { settle: (result) => settled.push(result ? result.text : null) };
    },
  };
}

describe('withGate', () => {
  it('settles each admitted call with its result, or null when it failed', async () => {
    const error = new ProviderError({
      provider: 'fake:model',
      kind: 'server',
      retryable: true,
      message: 'boom',
    });
    const provider = new FakeProvider({ script: [{ text: 'one' }, { error }] });
    const gate = recordingGate();
    const gated = withGate(provider, gate);
    await gated.generate(request);
    await expect(gated.generate(request)).rejects.toBe(error);
    expect(gate.settled).toEqual(['one', null]);
  });

  it('a refusal sends nothing', async () => {
    const provider = new FakeProvider({ fallback: { text: 'x' } });
    await expect(withGate(provider, recordingGate(true)).generate(request)).rejects.toThrow(
      'refused',
    );
    expect(provider.requests).toHaveLength(0);
  });
});
