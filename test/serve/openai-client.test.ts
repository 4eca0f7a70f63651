/**
 * The official `openai` npm client against `apb serve` (direct, forwarding to the loopback fake's OpenAI wire):
 * chat completions with tools over several turns, streaming, structured output, options passed through or
 * refused, upstream errors raised as the client's own classes after one upstream request, the Responses API
 * (plain, tools, structured, streaming) and `models.retrieve`.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/server.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { ANSWER_SCHEMA, bodyOf, ORDER_TOOL, serveOver } from './harness.js';

let fake: FakeServer;
let serve: RunningServe;
const client = (options: { maxRetries?: number } = {}) =>
  new OpenAI({ baseURL: serve.baseUrl, apiKey: 'client-key', ...options });
const tools = [{ type: 'function' as const, function: ORDER_TOOL }];

beforeAll(async () => {
  fake = await startFakeServer();
  serve = await serveOver(fake);
});
afterAll(async () => {
  await serve.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe('openai client → apb serve: chat completions', () => {
  it('runs a two-turn tool loop, non-streaming and streaming, with the calls and results forwarded', async () => {
    fake.enqueue(
      replies.toolCalls({
        id: 'call_1',
        name: 'get_order_details',
        arguments: { order_id: '#W1' },
      }),
      replies.text('Order #W1 is pending.'),
    );
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Where is my order #W1?' },
    ];
    const first = await client().chat.completions.create({ model: 'gpt-4o', messages, tools });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      order_id: '#W1',
    });
    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call.id,
      content: '{"status":"pending"}',
    });
    const stream = await client().chat.completions.create({
      model: 'gpt-4o',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Order #W1 is pending.');
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    const second = fake.requests[1]!.parsed!;
    expect(second.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(second.messages[3]!.text).toBe('{"status":"pending"}');
  });

  it('forwards structured output (json_schema) and JSON mode; the reply parses', async () => {
    fake.enqueue(replies.json({ status: 'pending', refund: 0 }), replies.json({ ok: true }));
    const reply = await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Status?' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: ANSWER_SCHEMA, strict: true },
      },
    });
    expect(JSON.parse(reply.choices[0]!.message.content!)).toEqual({
      status: 'pending',
      refund: 0,
    });
    expect(bodyOf(fake.requests[0]).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: ANSWER_SCHEMA, strict: true },
    });
    await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'JSON please' }],
      response_format: { type: 'json_object' },
    });
    expect(bodyOf(fake.requests[1]).response_format).toEqual({ type: 'json_object' });
  });

  it('an OpenAI-compatible upstream gets the JSON schema as json_schema, not weakened to json_object', async () => {
    const compatible = await serveOver(fake, 'openai-compatible:qwen3');
    fake.enqueue(replies.json({ status: 'pending', refund: 0 }));
    await new OpenAI({ baseURL: compatible.baseUrl, apiKey: 'k' }).chat.completions.create({
      model: 'qwen3',
      messages: [{ role: 'user', content: 'Status?' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: ANSWER_SCHEMA, strict: true },
      },
    });
    expect(bodyOf(fake.requests[0]).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: ANSWER_SCHEMA, strict: true },
    });
    await compatible.close();
  });

  it('sends no sampling the client did not set, and passes every option it did', async () => {
    await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const bare = bodyOf(fake.requests[0]);
    for (const field of ['temperature', 'top_p', 'seed', 'max_tokens', 'stop'])
      expect(bare).not.toHaveProperty(field);
    await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { ...ORDER_TOOL, strict: true } }],
      temperature: 0.7,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      parallel_tool_calls: false,
      logprobs: true,
      top_logprobs: 2,
      max_completion_tokens: 99,
      user: 'u-1',
    });
    expect(bodyOf(fake.requests[1])).toMatchObject({
      temperature: 0.7,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      parallel_tool_calls: false,
      logprobs: true,
      top_logprobs: 2,
      max_tokens: 99,
      user: 'u-1',
      tools: [{ type: 'function', function: { name: ORDER_TOOL.name, strict: true } }],
    });
  });

  it('refuses a field it cannot forward with a 400 naming it, sending nothing upstream', async () => {
    const call = client({ maxRetries: 0 }).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      audio: { voice: 'alloy', format: 'mp3' },
      modalities: ['text', 'audio'],
    });
    await expect(call).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(call).rejects.toThrow(/audio, modalities: not supported by apb serve/);
    expect(fake.count()).toBe(0);
  });

  it('passes malformed tool arguments on as the model wrote them, naming the problem in a header', async () => {
    fake.enqueue(
      replies.toolCalls({ id: 'c1', name: 'get_order_details', arguments: '{"order_id": "#W1"' }),
    );
    const { data, response } = await client()
      .chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        tools,
      })
      .withResponse();
    const call = data.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.arguments).toBe('{"order_id": "#W1"');
    expect(response.headers.get('x-apb-tool-arguments-error')).toMatch(
      /^c1: arguments are not valid JSON/,
    );
  });

  it('forwards malformed tool arguments from the client as the client gave them', async () => {
    fake.enqueue(replies.text('noted'));
    const written = '{"order_id": "#W1"';
    await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Where is #W1?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'get_order_details', arguments: written },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Error: bad arguments' },
      ],
      tools,
    });
    const sent = bodyOf(fake.requests[0]).messages as {
      tool_calls?: { function: { arguments: string } }[];
    }[];
    const forwarded = sent.find((message) => message.tool_calls)!.tool_calls![0]!;
    expect(forwarded.function.arguments).toBe(written);
  });

  it('reports usage as the upstream did, and none when it reported none', async () => {
    fake.enqueue(
      replies.text('counted', { usage: { inputTokens: 11, outputTokens: 3 } }),
      replies.text('x', {
        body: {
          id: 'u',
          object: 'chat.completion',
          created: 0,
          model: 'gpt-4o',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' },
          ],
        },
      }),
    );
    const counted = await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'a' }],
    });
    expect(counted.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 3,
      total_tokens: 14,
    });
    const unknown = await client().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'b' }],
    });
    expect(unknown.usage).toBeUndefined();
  });
});

describe('openai client → apb serve: upstream errors', () => {
  const ask = (maxRetries?: number) =>
    client(maxRetries === undefined ? {} : { maxRetries }).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });

  it('401 upstream: AuthenticationError after one upstream request, with retries on', async () => {
    fake.configure({ respond: () => replies.status(401, 'Incorrect API key provided') });
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(fake.count()).toBe(1);
  });

  it('403, 404, 429 (with Retry-After) and 500 keep their status and class', async () => {
    fake.configure({ respond: () => replies.status(403, 'forbidden') });
    await expect(ask(0)).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    fake.configure({ respond: () => replies.status(404, 'The model does not exist') });
    await expect(ask(0)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    fake.configure({ respond: () => replies.rateLimited({ retryAfter: '7' }) });
    const limited = await ask(0).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe(
      '7',
    );
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).code).toBe(
      'rate_limit_exceeded',
    );
    fake.reset();
    fake.configure({ respond: () => replies.status(500, 'upstream broke') });
    await expect(ask(0)).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    // apb serve does not retry behind the client: one client request, one upstream request.
    expect(fake.count()).toBe(1);
  });
});

describe('openai client → apb serve: Responses API and models', () => {
  it('responses.create: text, a tool call and its output over two turns, and structured output', async () => {
    fake.enqueue(
      replies.text('Hello there.'),
      replies.toolCalls({
        id: 'call_r',
        name: 'get_order_details',
        arguments: { order_id: '#W2' },
      }),
      replies.json({ status: 'shipped', refund: 0 }),
    );
    const plain = await client().responses.create({
      model: 'gpt-4o',
      input: 'Say hello',
      instructions: 'Be brief.',
    });
    expect(plain.output_text).toBe('Hello there.');
    expect(plain.usage?.input_tokens).toBeGreaterThan(0);
    const tool = { type: 'function' as const, ...ORDER_TOOL, strict: true };
    const first = await client().responses.create({
      model: 'gpt-4o',
      input: 'Order #W2?',
      tools: [tool],
    });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call).toMatchObject({
      call_id: 'call_r',
      name: 'get_order_details',
      arguments: '{"order_id":"#W2"}',
    });
    const second = await client().responses.create({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Order #W2?' },
        call,
        { type: 'function_call_output', call_id: 'call_r', output: '{"status":"shipped"}' },
      ],
      tools: [tool],
      text: {
        format: { type: 'json_schema', name: 'answer', schema: ANSWER_SCHEMA, strict: true },
      },
    });
    expect(JSON.parse(second.output_text)).toEqual({ status: 'shipped', refund: 0 });
    const upstream = bodyOf(fake.requests[2]);
    expect(upstream.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer' },
    });
    expect(fake.requests[2]!.parsed!.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
    expect(bodyOf(fake.requests[0]).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);
  });

  it('responses.create streaming: text deltas and a completed response', async () => {
    fake.enqueue(replies.text('Streamed reply.'));
    const stream = await client().responses.create({ model: 'gpt-4o', input: 'hi', stream: true });
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text).toBe('Streamed reply.');
    expect(completed?.status).toBe('completed');
  });

  it('refuses previous_response_id (stateless) naming it', async () => {
    const call = client({ maxRetries: 0 }).responses.create({
      model: 'gpt-4o',
      input: 'hi',
      previous_response_id: 'resp_1',
    });
    await expect(call).rejects.toThrow(/previous_response_id: apb serve is stateless/);
  });

  it('models.retrieve and models.list name the tested model; another is 404', async () => {
    expect((await client().models.retrieve('gpt-4o')).id).toBe('gpt-4o');
    expect((await client().models.list()).data.map((model) => model.id)).toEqual(['openai:gpt-4o']);
    await expect(client({ maxRetries: 0 }).models.retrieve('other')).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });
});
