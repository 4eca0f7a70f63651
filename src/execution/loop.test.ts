/** The execution loop against scripted players and a small named fake session: routing, stops, limits, failures. */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import {
  AGENT_GREETING,
  runConversation,
  type AgentPlayer,
  type LoopMessage,
  type ToolSession,
  type Turn,
  type UserPlayer,
} from './loop.js';

const say = (content: string): Turn => ({
  content,
  toolCalls: [],
  usage: { inputTokens: 10, outputTokens: 2 },
  cached: false,
});
const call = (name: string, args: unknown, id = `c-${name}`): Turn => ({
  content: null,
  toolCalls: [{ id, name, arguments: args }],
  usage: { inputTokens: 20, outputTokens: 4 },
  cached: false,
});

/** Plays turns in order; the view it was given each time is kept. */
function scripted(turns: Turn[]): { player: AgentPlayer & UserPlayer; views: LoopMessage[][] } {
  const views: LoopMessage[][] = [];
  const player = async (messages: readonly LoopMessage[]) => {
    views.push([...messages]);
    const next = turns.shift();
    if (!next) throw new Error('script exhausted');
    return next;
  };
  return { player, views };
}

/** A fake shop session (named as such): one pending order, a lookup, a cancel; unknown ids are tool errors. */
function fakeShopSession(): ToolSession & { calls: string[] } {
  const orders = new Map([['#W1', 'pending']]);
  const calls: string[] = [];
  return {
    calls,
    callTool(name, args) {
      calls.push(name);
      const id = (args as { order_id?: string }).order_id ?? '';
      if (!orders.has(id)) return { content: 'Error: Order not found', error: true };
      if (name === 'cancel_pending_order') orders.set(id, 'cancelled');
      return { content: JSON.stringify({ order_id: id, status: orders.get(id) }), error: false };
    },
  };
}

describe('runConversation', () => {
  it("greets, routes tool calls to the session and results back to the agent, and ends on the user's stop", async () => {
    const user = scripted([say('Cancel #W1 please.'), say('Yes, thanks. ###STOP###')]);
    const agent = scripted([
      call('get_order_details', { order_id: '#W1' }),
      call('cancel_pending_order', { order_id: '#W1' }),
      say('It is cancelled.'),
    ]);
    const session = fakeShopSession();
    const result = await runConversation({ agent: agent.player, user: user.player, session });
    expect(result.termination).toBe('user_stop');
    expect(result.stopSignal).toBe('###STOP###');
    expect(result.messages.map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(result.messages[0]).toEqual({ role: 'assistant', content: AGENT_GREETING });
    expect(result.messages[5]).toMatchObject({
      role: 'tool',
      tool_call_id: 'c-cancel_pending_order',
      content: '{"order_id":"#W1","status":"cancelled"}',
      error: false,
    });
    expect(session.calls).toEqual(['get_order_details', 'cancel_pending_order']);
    // user, agent, env, agent, env, agent, user: one step per message passed
    expect(result.steps).toBe(7);
    expect(result.usage.agent).toEqual({
      calls: 3,
      cached_calls: 0,
      input_tokens: 50,
      output_tokens: 10,
    });
    expect(result.usage.user.calls).toBe(2);
    // The agent saw the tool results before answering.
    expect(agent.views[2]!.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('ends on a transfer to a human agent and on the out-of-scope signal', async () => {
    for (const signal of ['###TRANSFER###', '###OUT-OF-SCOPE###']) {
      const result = await runConversation({
        agent: scripted([say('I will transfer you.')]).player,
        user: scripted([say('Hi'), say(signal)]).player,
        session: fakeShopSession(),
      });
      expect(result).toMatchObject({ termination: 'user_stop', stopSignal: signal });
    }
  });

  it('stops at --max-steps, never with a tool result owed to the agent', async () => {
    const agent = scripted(
      Array.from({ length: 20 }, () => call('get_order_details', { order_id: '#W1' })),
    );
    const result = await runConversation({
      agent: agent.player,
      user: scripted([say('Hi')]).player,
      session: fakeShopSession(),
      maxSteps: 4,
    });
    expect(result.termination).toBe('max_steps');
    expect(result.messages.at(-1)?.role).toBe('tool');
    // the limit is reached at the agent's second call (step 4, a result owed), so that result is passed first: 5 steps
    expect(result.steps).toBe(5);
  });

  it('stops after too many tool errors, and returns unreadable arguments as an error without running the tool', async () => {
    const bad: Turn = {
      content: null,
      toolCalls: [
        {
          id: 'x',
          name: 'get_order_details',
          arguments: {},
          argumentsError: 'arguments are not valid JSON: {"order',
        },
      ],
      usage: null,
      cached: false,
    };
    const session = fakeShopSession();
    const agent = scripted([
      bad,
      call('get_order_details', { order_id: '#W9' }),
      call('get_order_details', { order_id: '#W8' }),
    ]);
    const result = await runConversation({
      agent: agent.player,
      user: scripted([say('Hi')]).player,
      session,
      maxErrors: 2,
    });
    expect(result.termination).toBe('too_many_errors');
    expect(result.toolErrors).toBe(2);
    expect(result.messages[3]).toMatchObject({
      role: 'tool',
      error: true,
      content: 'Error: arguments are not valid JSON: {"order',
    });
    expect(session.calls).toEqual(['get_order_details']);
  });

  it("starts from a shared first user message, and ends on the agent's stop signal", async () => {
    const user = scripted([]);
    const result = await runConversation({
      agent: scripted([say('Done. ###STOP###')]).player,
      user: user.player,
      session: fakeShopSession(),
      firstUserMessage: say('Cancel #W1.'),
    });
    expect(result).toMatchObject({ termination: 'agent_stop', steps: 2 });
    expect(result.messages[1]).toEqual({ role: 'user', content: 'Cancel #W1.' });
    expect(user.views).toHaveLength(0);
  });

  it('ends on an infrastructure error when a model call fails, and lets a fatal one through', async () => {
    const failing: UserPlayer = async () => {
      throw new ProviderError({
        provider: 'fake',
        kind: 'server',
        retryable: true,
        status: 503,
        message: 'fake 503',
      });
    };
    const result = await runConversation({
      agent: scripted([]).player,
      user: failing,
      session: fakeShopSession(),
    });
    expect(result).toMatchObject({
      termination: 'infrastructure_error',
      error: { role: 'user', kind: 'server', message: 'fake 503' },
    });
    const fatal: UserPlayer = async () => {
      throw new ProviderError({
        provider: 'fake',
        kind: 'auth',
        retryable: false,
        status: 401,
        message: 'bad key',
      });
    };
    await expect(
      runConversation({ agent: scripted([]).player, user: fatal, session: fakeShopSession() }),
    ).rejects.toThrow('bad key');
  });
});
