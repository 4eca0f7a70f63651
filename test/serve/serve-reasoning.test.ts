/**
 * Reasoning state across turns: Claude's signed thinking block, returned beside a tool call, is not in the
 * OpenAI-shaped history a client sends back; apb serve keeps it and gives it back to the upstream with the
 * replayed call, as Anthropic requires.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/server.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { bodyOf, ORDER_TOOL, serveOver } from './harness.js';

let fake: FakeServer;
let serve: RunningServe;

beforeAll(async () => {
  fake = await startFakeServer();
  serve = await serveOver(fake, 'anthropic:claude-sonnet-4-5');
});
afterAll(async () => {
  await serve.close();
  await fake.close();
});

describe('apb serve reasoning state', () => {
  it("puts Claude's signed thinking back in front of the tool call a client replays", async () => {
    fake.enqueue(
      replies.text('', {
        body: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            { type: 'thinking', thinking: 'Look the order up first.', signature: 'sig-abc' },
            {
              type: 'tool_use',
              id: 'toolu_9',
              name: 'get_order_details',
              input: { order_id: '#W1' },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      }),
      replies.text('Pending.'),
    );
    const client = new OpenAI({ baseURL: serve.baseUrl, apiKey: 'k' });
    const tools = [{ type: 'function' as const, function: ORDER_TOOL }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Where is #W1?' },
    ];
    const first = await client.chat.completions.create({ model: 'claude', messages, tools });
    const message = first.choices[0]!.message as OpenAI.ChatCompletionMessage & {
      reasoning_content?: string;
    };
    expect(message.reasoning_content).toBe('Look the order up first.');
    // The client sends back only what the OpenAI shape has: the call, not the signature.
    messages.push(
      { role: 'assistant', content: null, tool_calls: message.tool_calls },
      { role: 'tool', tool_call_id: 'toolu_9', content: 'pending' },
    );
    await client.chat.completions.create({ model: 'claude', messages, tools });
    const replayed = (
      bodyOf(fake.requests[1]).messages as Array<{ role: string; content: unknown }>
    )[1]!;
    expect(replayed.role).toBe('assistant');
    expect(replayed.content).toEqual([
      { type: 'thinking', thinking: 'Look the order up first.', signature: 'sig-abc' },
      expect.objectContaining({ type: 'tool_use', id: 'toolu_9', name: 'get_order_details' }),
    ]);
  });
});
