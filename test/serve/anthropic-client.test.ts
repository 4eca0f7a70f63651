/**
 * The official `@anthropic-ai/sdk` client against `apb serve`'s `/v1/messages`, forwarding to the fake's
 * Anthropic wire (and once to its OpenAI wire: the client's API and the upstream's need not match): tools over
 * two turns, streaming, options passed or refused, and a 401 upstream as the client's AuthenticationError after
 * one upstream request.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/server.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { bodyOf, ORDER_TOOL, serveOver } from './harness.js';

let fake: FakeServer;
let serve: RunningServe;
const client = (options: { maxRetries?: number } = {}) =>
  new Anthropic({ baseURL: serve.baseUrl.replace(/\/v1$/, ''), apiKey: 'client-key', ...options });
const tools = [
  {
    name: ORDER_TOOL.name,
    description: ORDER_TOOL.description,
    input_schema: ORDER_TOOL.parameters,
  },
];

beforeAll(async () => {
  fake = await startFakeServer();
  serve = await serveOver(fake, 'anthropic:claude-sonnet-4-5');
});
afterAll(async () => {
  await serve.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe('anthropic client → apb serve /v1/messages', () => {
  it('messages.create: a tool use, its result, then text; the history reaches the upstream', async () => {
    fake.enqueue(
      replies.toolCalls({
        id: 'toolu_1',
        name: 'get_order_details',
        arguments: { order_id: '#W1' },
      }),
      replies.text('It is pending.'),
    );
    const first = await client().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      system: 'You are a support agent.',
      messages: [{ role: 'user', content: 'Where is #W1?' }],
      tools,
    });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use')!;
    expect(use).toMatchObject({
      id: 'toolu_1',
      name: 'get_order_details',
      input: { order_id: '#W1' },
    });
    const second = await client().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      system: 'You are a support agent.',
      messages: [
        { role: 'user', content: 'Where is #W1?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'pending' }],
        },
      ],
      tools,
    });
    expect(second.content).toEqual([{ type: 'text', text: 'It is pending.' }]);
    expect(second.usage.input_tokens).toBeGreaterThan(0);
    const upstream = bodyOf(fake.requests[1]);
    expect(upstream.system).toBeDefined();
    expect(fake.requests[1]!.parsed!.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(upstream).not.toHaveProperty('temperature');
    expect(upstream.max_tokens).toBe(200);
  });

  it('messages.stream: text deltas and the final message', async () => {
    fake.enqueue(replies.text('Streamed from Claude.'));
    const stream = client().messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe('Streamed from Claude.');
    expect(final.stop_reason).toBe('end_turn');
  });

  it('passes temperature, top_p and stop sequences; refuses an unknown field naming it', async () => {
    await client().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      temperature: 0.4,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(bodyOf(fake.requests[0])).toMatchObject({ temperature: 0.4, stop_sequences: ['END'] });
    const refused = client({ maxRetries: 0 }).messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
      container: 'c-1',
    } as Anthropic.MessageCreateParamsNonStreaming);
    await expect(refused).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(refused).rejects.toThrow(/container: not supported by apb serve/);
  });

  it("a 401 upstream is the client's AuthenticationError after one upstream request; a 429 its RateLimitError", async () => {
    fake.configure({ respond: () => replies.status(401, 'invalid x-api-key') });
    const call = client().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(call).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    expect(fake.count()).toBe(1);
    fake.configure({ respond: () => replies.rateLimited({ retryAfter: '3' }) });
    const limited = await client({ maxRetries: 0 })
      .messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(
      (limited as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after'),
    ).toBe('3');
  });
});
