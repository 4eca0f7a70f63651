/**
 * Agent frameworks against `apb serve` (direct, forwarding to the loopback fake's OpenAI wire): the OpenAI
 * Agents SDK (Responses API by default, and chat completions), LangChain JS's ChatOpenAI, and the AI SDK's
 * OpenAI provider (Responses API): a tool loop, structured output, streaming, and a 401 upstream raised as the
 * client's authentication error after one upstream request.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool as aiTool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunningServe } from '../../src/serve/server.js';
import {
  replies,
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { ANSWER_SCHEMA, bodyOf, ORDER_TOOL, serveOver } from './harness.js';

let fake: FakeServer;
let serve: RunningServe;
const openaiClient = () => new OpenAI({ baseURL: serve.baseUrl, apiKey: 'client-key' });
const Answer = z.object({ status: z.string(), refund: z.number() });

/** The fake model: a tool call first, then (after the tool's result) the structured answer or a text. */
function agentModel(request: RecordedRequest): FakeReply {
  const messages = request.parsed!.messages;
  if (!messages.some((message) => message.role === 'tool'))
    return replies.toolCalls({ name: 'get_order_details', arguments: { order_id: '#W1' } });
  return bodyOf(request).response_format
    ? replies.json({ status: 'pending', refund: 0 })
    : replies.text('Order #W1 is pending.');
}

beforeAll(async () => {
  setTracingDisabled(true);
  fake = await startFakeServer();
  serve = await serveOver(fake);
});
afterAll(async () => {
  await serve.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.configure({ respond: agentModel });
});

const orderTool = () => {
  const looked: string[] = [];
  const lookup = tool({
    name: 'get_order_details',
    description: ORDER_TOOL.description,
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => (looked.push(order_id), `{"status":"pending"}`),
  });
  return { lookup, looked };
};

describe('OpenAI Agents SDK → apb serve', () => {
  it('Responses API (the default): a tool call, its output, and a structured final output', async () => {
    const { lookup, looked } = orderTool();
    const agent = new Agent({
      name: 'support',
      instructions: 'You are a support agent.',
      model: new OpenAIResponsesModel(openaiClient(), 'gpt-4o'),
      tools: [lookup],
      outputType: Answer,
    });
    const result = await run(agent, 'Where is my order #W1?');
    expect(looked).toEqual(['#W1']);
    expect(result.finalOutput).toEqual({ status: 'pending', refund: 0 });
    expect(fake.requests).toHaveLength(2);
    expect(bodyOf(fake.requests[1]).response_format).toMatchObject({ type: 'json_schema' });
  });

  it('streaming over the Responses API, and chat completions as the model API', async () => {
    const { lookup } = orderTool();
    const streamed = await run(
      new Agent({
        name: 'support',
        model: new OpenAIResponsesModel(openaiClient(), 'gpt-4o'),
        tools: [lookup],
      }),
      'Where is my order #W1?',
      { stream: true },
    );
    let text = '';
    for await (const delta of streamed.toTextStream()) text += delta;
    await streamed.completed;
    expect(text).toBe('Order #W1 is pending.');
    const chat = await run(
      new Agent({
        name: 'support',
        model: new OpenAIChatCompletionsModel(openaiClient(), 'gpt-4o'),
        tools: [orderTool().lookup],
        outputType: Answer,
      }),
      'Where is my order #W1?',
    );
    expect(chat.finalOutput).toEqual({ status: 'pending', refund: 0 });
  });

  it('a 401 upstream raises the AuthenticationError after one upstream request', async () => {
    fake.configure({ respond: () => replies.status(401, 'Incorrect API key provided') });
    const agent = new Agent({
      name: 'a',
      model: new OpenAIResponsesModel(openaiClient(), 'gpt-4o'),
    });
    await expect(run(agent, 'hi')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(fake.count()).toBe(1);
  });
});

describe('LangChain ChatOpenAI → apb serve', () => {
  const chat = (options: Record<string, unknown> = {}) =>
    new ChatOpenAI({
      model: 'gpt-4o',
      apiKey: 'client-key',
      configuration: { baseURL: serve.baseUrl },
      ...options,
    });

  it('bindTools then a tool message; withStructuredOutput; streaming', async () => {
    const model = chat().bindTools([{ type: 'function', function: ORDER_TOOL }]);
    const first = await model.invoke([{ role: 'user', content: 'Where is #W1?' }]);
    expect(first.tool_calls?.[0]).toMatchObject({
      name: 'get_order_details',
      args: { order_id: '#W1' },
    });
    const second = await model.invoke([
      { role: 'user', content: 'Where is #W1?' },
      first,
      { role: 'tool', content: '{"status":"pending"}', tool_call_id: first.tool_calls![0]!.id! },
    ]);
    expect(second.content).toBe('Order #W1 is pending.');
    fake.configure({ respond: () => replies.json({ status: 'pending', refund: 0 }) });
    const structured = await chat()
      .withStructuredOutput(ANSWER_SCHEMA, { name: 'answer', method: 'jsonSchema' })
      .invoke('Status?');
    expect(structured).toEqual({ status: 'pending', refund: 0 });
    expect(bodyOf(fake.requests.at(-1)).response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer' },
    });
    fake.configure({ respond: () => replies.text('streamed words') });
    let text = '';
    for await (const chunk of await chat().stream('hi')) text += String(chunk.content);
    expect(text).toBe('streamed words');
  });

  it('the Responses API (useResponsesApi) with a tool call', async () => {
    const model = chat({ useResponsesApi: true }).bindTools([
      { type: 'function', function: ORDER_TOOL },
    ]);
    const first = await model.invoke('Where is #W1?');
    expect(first.tool_calls?.[0]).toMatchObject({
      name: 'get_order_details',
      args: { order_id: '#W1' },
    });
  });

  it('a 401 upstream is an authentication error after one upstream request (LangChain retries otherwise)', async () => {
    fake.configure({ respond: () => replies.status(401, 'Incorrect API key provided') });
    const error = await chat()
      .invoke('hi')
      .catch((caught: unknown) => caught as { status?: number; lc_error_code?: string });
    expect(error).toMatchObject({ status: 401, lc_error_code: 'MODEL_AUTHENTICATION' });
    expect(fake.count()).toBe(1);
  });
});

describe('AI SDK OpenAI provider (Responses API) → apb serve', () => {
  const model = () => createOpenAI({ baseURL: serve.baseUrl, apiKey: 'client-key' })('gpt-4o');
  const tools = {
    get_order_details: aiTool({
      description: ORDER_TOOL.description,
      inputSchema: jsonSchema<{ order_id: string }>(ORDER_TOOL.parameters as never),
      execute: async () => ({ status: 'pending' }),
    }),
  };

  it('a tool loop with structured output, and streaming', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'Where is #W1?',
      tools,
      stopWhen: stepCountIs(3),
      output: Output.object({ schema: jsonSchema(ANSWER_SCHEMA as never) }),
    });
    expect(result.output).toEqual({ status: 'pending', refund: 0 });
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    const streamed = streamText({
      model: model(),
      prompt: 'Where is #W1?',
      tools,
      stopWhen: stepCountIs(3),
    });
    expect(await streamed.text).toBe('Order #W1 is pending.');
  });
});
