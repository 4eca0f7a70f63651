/**
 * Dual control in the execution loop, on the real tau2:telecom environment: scripted players work
 * through each small task's reference actions in order — the user simulator calls its phone's tools
 * for the user's actions, the agent its own tools for the agent's — and the conversation reaches
 * reward 1.0, with the agent never shown a user tool call or its result, and the user simulator's
 * chat holding its own calls and results but none of the agent's.
 */
import { describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { runConversation, type LoopMessage, type Turn } from '../../src/execution/loop.js';
import { computeReward } from '../../src/execution/reward.js';
import { userChat } from '../../src/execution/user-simulator.js';

const environment = loadEnvironment('tau2:telecom');
const said = (content: string): Turn => ({ content, toolCalls: [], usage: null, cached: false });
const calling = (id: string, name: string, args: Record<string, unknown>): Turn => ({
  content: null,
  toolCalls: [{ id, name, arguments: args }],
  usage: null,
  cached: false,
});

describe('the loop on tau2:telecom', () => {
  it.each(environment.splits.small!)('solves %s with the user acting on the phone', async (id) => {
    const task = environment.tasks.find((candidate) => candidate.id === id)!;
    const queue = [...(task.criteria.actions ?? [])];
    const agentViews: LoopMessage[][] = [];
    const userViews: LoopMessage[][] = [];
    const next = (who: 'user' | 'assistant', messages: readonly LoopMessage[]): Turn | null => {
      const action = queue[0];
      if (!action || action.requestor !== who) return null;
      queue.shift();
      return calling(`${who}-${messages.length}`, action.name, action.arguments);
    };
    const session = environment.openSession(task);
    const result = await runConversation({
      agent: async (messages) => {
        agentViews.push([...messages]);
        return next('assistant', messages) ?? said(queue.length ? 'Please do this.' : '###STOP###');
      },
      user: async (messages) => {
        userViews.push([...messages]);
        return next('user', messages) ?? said('Done, what next?');
      },
      session,
    });
    expect(result.termination).toBe('agent_stop');
    const userCalls = result.messages.filter((m) => m.role === 'user' && m.tool_calls?.length);
    expect(userCalls.length).toBe(
      (task.criteria.actions ?? []).filter((action) => action.requestor === 'user').length,
    );
    for (const view of agentViews) {
      expect(view.some((m) => m.role === 'tool' && m.requestor === 'user')).toBe(false);
      expect(view.some((m) => m.role === 'user' && m.tool_calls)).toBe(false);
    }
    const chat = userChat('system', userViews.at(-1)!);
    const results = chat.flatMap((m) => (m.role === 'tool' ? m.results : []));
    expect(results).toHaveLength(userCalls.length);
    const agentTools = new Set(environment.tools.map((tool) => tool.name));
    expect(results.some((r) => agentTools.has(r.name))).toBe(false);
    const scored = (finalDatabase = session.database()) =>
      computeReward({ environment, task, ...result, finalDatabase });
    expect((await scored()).reward).toBe(1);
    // The same conversation over a fresh session (the phone still broken) fails where only the
    // state counts: the reward reads the session's state (ACTION tasks, transfers, pass on the calls).
    if (!task.criteria.rewardBasis.includes('ACTION'))
      expect((await scored(environment.openSession(task).database())).reward).toBe(0);
  });
});
