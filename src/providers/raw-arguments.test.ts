import { describe, expect, it } from 'vitest';
import { toolCallInput, withRawArguments } from './raw-arguments.js';

/** Sends `body` through the wrapper and returns what reached the inner fetch. */
async function sent(body: unknown): Promise<unknown> {
  let seen = '';
  const inner = (async (_input: unknown, init?: RequestInit) => {
    seen = String(init?.body);
    return new Response('{}');
  }) as typeof globalThis.fetch;
  await withRawArguments(inner)('http://127.0.0.1/', {
    method: 'POST',
    body: JSON.stringify(body),
  });
  return JSON.parse(seen);
}

describe('raw tool arguments', () => {
  const call = { id: 'c1', name: 't', arguments: {}, rawArguments: '{"a": 1' };

  it('puts the written text back where the wire carries arguments as a string', async () => {
    const serialised = JSON.stringify(toolCallInput(call));
    const body = { messages: [{ tool_calls: [{ function: { arguments: serialised } }] }] };
    expect(await sent(body)).toEqual({
      messages: [{ tool_calls: [{ function: { arguments: '{"a": 1' } }] }],
    });
  });

  it('sends an empty object where the input must be an object (Anthropic, Gemini)', async () => {
    const body = { messages: [{ content: [{ type: 'tool_use', input: toolCallInput(call) }] }] };
    expect(await sent(body)).toEqual({
      messages: [{ content: [{ type: 'tool_use', input: {} }] }],
    });
  });

  it('leaves readable arguments and other bodies as they are', async () => {
    expect(toolCallInput({ id: 'c', name: 't', arguments: { a: 1 } })).toEqual({ a: 1 });
    expect(await sent({ x: '{"b":2}' })).toEqual({ x: '{"b":2}' });
  });
});
