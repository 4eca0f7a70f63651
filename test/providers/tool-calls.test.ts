/** Tool calling through the Provider contract, over real HTTP against the loopback fake, for every vendor adapter. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/providers/model-spec.js';
import type { ChatMessage, ProviderRequest, ToolDefinition } from '../../src/providers/provider.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { ResponseCache } from '../../src/providers/cache.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { ADAPTER_CASES, makeRequest, TEST_KEY, type AdapterCase } from './helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({ requireKey: TEST_KEY });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const LOOKUP: ToolDefinition = {
  name: 'get_order_details',
  description: 'Get the status and details of an order.',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order id, such as #W0000000.' } },
    required: ['order_id'],
  },
};

/** A conversation that already holds one tool-call turn and its result. */
const HISTORY: ChatMessage[] = [
  { role: 'system', parts: [{ type: 'text', text: 'You are a support agent.' }] },
  { role: 'user', parts: [{ type: 'text', text: 'Where is order #W1?' }] },
  {
    role: 'assistant',
    parts: [],
    toolCalls: [{ id: 'call_a', name: 'get_order_details', arguments: { order_id: '#W1' } }],
  },
  {
    role: 'tool',
    results: [
      {
        callId: 'call_a',
        name: 'get_order_details',
        content: 'Error: Order not found',
        isError: true,
      },
    ],
  },
];

function toolRequest(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return makeRequest({ messages: HISTORY, tools: [LOOKUP], role: 'agent', ...overrides });
}

describe.each(ADAPTER_CASES)('tool calling: $provider', (adapter: AdapterCase) => {
  const stack = () =>
    buildProviderStack(`${adapter.provider}:${adapter.model}`, {
      baseUrl: server.baseUrl(adapter.wire),
      env: { [PROVIDERS[adapter.provider].keyEnv[0]!]: TEST_KEY },
      maxRetries: 0,
    });

  it("sends the tools, the earlier tool call and its result, and returns the model's tool calls", async () => {
    server.enqueue(
      replies.toolCalls({
        id: 'call_b',
        name: 'get_order_details',
        arguments: { order_id: '#W2' },
      }),
    );
    const result = await stack().generate(toolRequest());
    expect(result.toolCalls).toEqual([
      { id: expect.any(String), name: 'get_order_details', arguments: { order_id: '#W2' } },
    ]);
    expect(result.finishReason).toBe('tool-calls');
    const parsed = server.requests[0]!.parsed!;
    expect(parsed.tools).toEqual([
      {
        name: LOOKUP.name,
        description: LOOKUP.description,
        parameters: expect.objectContaining({ required: ['order_id'] }),
      },
    ]);
    const assistant = parsed.messages.find((message) => message.toolCalls.length > 0);
    expect(assistant?.toolCalls[0]).toMatchObject({
      name: 'get_order_details',
      arguments: { order_id: '#W1' },
    });
    const tool = parsed.messages.find((message) => message.role === 'tool');
    expect(tool?.toolResults[0]?.content).toContain('Error: Order not found');
  });

  it('returns text and no tool calls when the model answers in words', async () => {
    server.enqueue(replies.text('Your order was not found.'));
    const result = await stack().generate(toolRequest());
    expect(result.text).toBe('Your order was not found.');
    expect(result.toolCalls).toBeUndefined();
  });
});

describe('tool calling: unreadable arguments and the cache', () => {
  const openai = (cache?: ResponseCache) =>
    buildProviderStack('openai:gpt-4o', {
      baseUrl: server.baseUrl('openai'),
      env: { OPENAI_API_KEY: TEST_KEY },
      maxRetries: 0,
      ...(cache ? { cache: { cache, enabled: true } } : {}),
    });

  it('keeps arguments that are not JSON as an error instead of guessing', async () => {
    server.enqueue(replies.toolCalls({ name: 'get_order_details', arguments: '{"order_id": "#W' }));
    const result = await openai().generate(toolRequest());
    expect(result.toolCalls?.[0]).toMatchObject({ name: 'get_order_details', arguments: {} });
    expect(result.toolCalls?.[0]?.argumentsError).toMatch(/not valid JSON/);
  });

  it('caches tool calls, and a request with other tools is another entry', async () => {
    const cache = ResponseCache.open(':memory:');
    server.enqueue(
      replies.toolCalls({ name: 'get_order_details', arguments: { order_id: '#W3' } }),
      replies.text('other'),
    );
    const first = await openai(cache).generate(toolRequest());
    const again = await openai(cache).generate(toolRequest());
    expect(again).toMatchObject({ cached: true, toolCalls: first.toolCalls });
    const otherTools = await openai(cache).generate(
      toolRequest({ tools: [{ ...LOOKUP, description: 'changed' }] }),
    );
    expect(otherTools.text).toBe('other');
    expect(server.count()).toBe(2);
    cache.close();
  });
});
