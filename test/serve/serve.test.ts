/**
 * `apb serve` driven by a real OpenAI-compatible client (the AI SDK's openai-compatible provider with its own
 * tool loop) through a multi-turn tool conversation, forwarded to the loopback fake: the plan is drafted once per
 * conversation and put in front of every request of it; streaming and non-streaming replies.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { draftPlan, refinePlan, type PlanningContext } from '../../src/execution/plans.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { startServe, type RunningServe, type ServeMode } from '../../src/serve/server.js';
import {
  replies,
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';

const PLANNER_MARK = 'You are the planner of a tool-using AI agent';
const PLAN = {
  plan: '1. Look up the order.\n2. Cancel it.\n3. Confirm.',
  tool_chain: [
    {
      name: 'get_order_details',
      parameter_description: { order_id: '#W1' },
      reason: 'see its status',
    },
    {
      name: 'cancel_pending_order',
      parameter_description: { order_id: '#W1', reason: 'no longer needed' },
      reason: 'the user asks',
    },
  ],
};
const REVISED = {
  ...PLAN,
  plan: 'REVISED: 1. Look up the order.\n2. Confirm with the user.\n3. Cancel it.',
};

let fake: FakeServer;
/** Agent requests carry tools; planning, critique and revision requests do not. */
const isAgent = (request: RecordedRequest) => (request.parsed?.tools.length ?? 0) > 0;
const isDraft = (request: RecordedRequest) =>
  !isAgent(request) &&
  (request.parsed?.messages[0]?.text.includes(PLANNER_MARK) ?? false) &&
  !request.parsed?.messages.some((message) => message.role === 'assistant');
const agentRequests = () => fake.requests.filter(isAgent);
const drafts = () => fake.requests.filter(isDraft);

/** The fake's model: a draft plan, a critique, a revision, or a scripted agent led by the tool results it has seen. */
function respond(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  if (!isAgent(request)) {
    if (!parsed.messages[0]?.text.includes(PLANNER_MARK))
      return replies.text('Step 2 cancels before confirming with the user.');
    return parsed.messages.some((message) => message.role === 'assistant')
      ? replies.json(REVISED)
      : replies.json(PLAN);
  }
  const results = parsed.messages.filter((message) => message.role === 'tool').length;
  if (parsed.messages.at(-1)?.role === 'user')
    return replies.toolCalls({ name: 'get_order_details', arguments: { order_id: '#W1' } });
  if (results % 2 === 1)
    return replies.toolCalls({
      name: 'cancel_pending_order',
      arguments: { order_id: '#W1', reason: 'no longer needed' },
    });
  return replies.text(`Done after ${results} tool results.`);
}

const toolbox = () => {
  const executed: string[] = [];
  const tools = {
    get_order_details: tool({
      description: 'Get the status and details of an order.',
      inputSchema: jsonSchema<{ order_id: string }>({
        type: 'object',
        properties: { order_id: { type: 'string' } },
        required: ['order_id'],
      }),
      execute: async ({ order_id }) => (
        executed.push(`get ${order_id}`),
        { order_id, status: 'pending' }
      ),
    }),
    cancel_pending_order: tool({
      description: 'Cancel a pending order.',
      inputSchema: jsonSchema<{ order_id: string; reason: string }>({
        type: 'object',
        properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
        required: ['order_id', 'reason'],
      }),
      execute: async ({ order_id }) => (
        executed.push(`cancel ${order_id}`),
        { order_id, status: 'cancelled' }
      ),
    }),
  };
  return { tools, executed };
};

async function serveAs(mode: ServeMode): Promise<RunningServe> {
  const stack = () =>
    buildProviderStack('openai:gpt-4o', {
      baseUrl: fake.baseUrl('openai'),
      env: { OPENAI_API_KEY: 'sk-test' },
      maxRetries: 0,
    });
  const planner = stack();
  const makePlan = async (context: PlanningContext, signal: AbortSignal) => {
    const draft = await draftPlan(planner, context, { sampling: {}, repeat: 0, signal });
    return mode === 'refine'
      ? refinePlan(draft, context, {
          reviser: planner,
          critic: planner,
          taxonomy: true,
          sampling: {},
          repeat: 0,
          signal,
        })
      : draft;
  };
  return startServe({
    mode,
    forward: stack(),
    port: 0,
    ...(mode === 'direct' ? {} : { makePlan }),
  });
}

const client = (serve: RunningServe) =>
  createOpenAICompatible({
    name: 'client',
    baseURL: serve.baseUrl,
    apiKey: 'client-key',
  }).chatModel('gpt-4o');
const SYSTEM = 'You are a retail support agent. Follow the policy: confirm before cancelling.';

beforeAll(async () => {
  fake = await startFakeServer();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.configure({ respond });
});

describe('apb serve', () => {
  it('plan-first: a five-turn tool conversation (fifteen requests) gets one plan, in front of every request', async () => {
    const serve = await serveAs('plan-first');
    const { tools, executed } = toolbox();
    const model = client(serve);
    const history: ModelMessage[] = [];
    const asks = [
      'Please cancel my order #W1.',
      'Thanks. Anything else?',
      'Check it once more, please.',
      'And again?',
      'Last time, I promise.',
    ];
    for (const [turn, ask] of asks.entries()) {
      history.push({ role: 'user', content: ask });
      // Odd turns stream, even ones do not: the client's own tool loop runs each turn's three requests.
      const reply =
        turn % 2 === 0
          ? await generateText({
              model,
              system: SYSTEM,
              messages: history,
              tools,
              stopWhen: stepCountIs(5),
            })
          : streamText({
              model,
              system: SYSTEM,
              messages: history,
              tools,
              stopWhen: stepCountIs(5),
            });
      expect(await reply.text).toBe(`Done after ${2 * (turn + 1)} tool results.`);
      history.push(...(await reply.response).messages);
    }
    expect(executed).toHaveLength(10);

    const agent = agentRequests();
    expect(agent).toHaveLength(15);
    expect(drafts()).toHaveLength(1);
    for (const request of agent) {
      const system = request.parsed!.messages[0]!;
      expect(system.role).toBe('system');
      expect(system.text.startsWith(SYSTEM)).toBe(true);
      expect(system.text).toContain('<plan>');
      expect(system.text).toContain('1. get_order_details {"order_id":"#W1"}');
      expect(request.parsed!.tools.map((item) => item.name)).toEqual([
        'get_order_details',
        'cancel_pending_order',
      ]);
    }
    // Tool calls and their results reach the model as the client sent them.
    const last = agent.at(-1)!.parsed!.messages;
    expect(
      last.filter((message) => message.role === 'tool').map((message) => message.text),
    ).toContain(JSON.stringify({ order_id: '#W1', status: 'cancelled' }));
    expect(last.flatMap((message) => message.toolCalls.map((call) => call.name))).toEqual(
      Array.from({ length: 5 }, () => ['get_order_details', 'cancel_pending_order']).flat(),
    );
    // The planner saw the first user message, the policy and the tools, and nothing the agent said later.
    const planning = drafts()[0]!.parsed!.text;
    expect(planning).toContain('Please cancel my order #W1.');
    expect(planning).toContain('confirm before cancelling');
    expect(planning).toContain('"name":"cancel_pending_order"');
    expect(planning).not.toContain('Thanks. Anything else?');
    expect(serve.stats()).toMatchObject({ requests: 15, conversations: 1, plans: 1 });

    // A different conversation is recognised as new and gets a plan of its own.
    await generateText({
      model,
      system: SYSTEM,
      prompt: 'Cancel order #W2, please.',
      tools,
      stopWhen: stepCountIs(1),
    });
    expect(drafts()).toHaveLength(2);
    await serve.close();
  });

  it('refine: the draft is critiqued and revised once per conversation, and the revised plan is what the agent sees', async () => {
    const serve = await serveAs('refine');
    const { tools } = toolbox();
    const model = client(serve);
    const result = await generateText({
      model,
      system: SYSTEM,
      prompt: 'Please cancel my order #W1.',
      tools,
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('Done after 2 tool results.');
    // draft, critique, revision — once, for the three agent requests of the conversation
    expect(fake.requests.filter((request) => !isAgent(request))).toHaveLength(3);
    expect(drafts()).toHaveLength(1);
    const agent = agentRequests();
    expect(agent).toHaveLength(3);
    for (const request of agent)
      expect(request.parsed!.messages[0]!.text).toContain('REVISED: 1. Look up the order.');
    await serve.close();
  });

  it('direct: forwards without planning, messages unchanged', async () => {
    const serve = await serveAs('direct');
    const { tools } = toolbox();
    const result = await generateText({
      model: client(serve),
      system: SYSTEM,
      prompt: 'Please cancel my order #W1.',
      tools,
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('Done after 2 tool results.');
    expect(drafts()).toHaveLength(0);
    for (const request of fake.requests) expect(request.parsed!.messages[0]!.text).toBe(SYSTEM);
    await serve.close();
  });

  it('answers a bad body with a 400 naming the field, and an upstream 429 as a 429', async () => {
    const serve = await serveAs('direct');
    const post = (body: unknown) =>
      fetch(`${serve.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post({ model: 'x', messages: [{ role: 'robot', content: 'hi' }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /^messages\[0\]\.role/,
    );
    fake.configure({ respond: () => replies.rateLimited({ retryAfterMs: 5 }) });
    const limited = await post({ model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    expect(limited.status).toBe(429);
    expect((await fetch(`${serve.baseUrl}/models`)).status).toBe(200);
    await serve.close();
  });
});
