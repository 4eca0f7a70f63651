/**
 * The agent under test: a model that sees the policy (and, in plan-first and refine, the plan) as its system text
 * and the whole conversation, tool results included, and answers with a message or tool calls through the
 * provider contract's tool calling.
 */
import type {
  ChatMessage,
  Provider,
  SamplingParams,
  ToolDefinition,
  ToolResult,
} from '../providers/provider.js';
import { versionOf } from '../settings/prompt.js';
import { turnOfReply, type AgentPlayer, type LoopMessage } from './loop.js';
import { withPlan } from './plans.js';

/** The agent's standing instructions (this project's words; tau2's agent is told the same rules). */
export const AGENT_INSTRUCTIONS = `You are a customer service agent. Help the user with their request, following the policy below.
On each turn, do one of two things: write a message to the user, or call one or more tools. Do not write to the user in a turn where you call tools.
Follow the policy at all times, and only state facts that the user or a tool has given you.`;

/** The agent's system text: instructions, the policy, and the plan when the mode has one. */
export function agentSystemText(policy: string, planBlock: string | null): string {
  const base = `<instructions>\n${AGENT_INSTRUCTIONS}\n</instructions>\n<policy>\n${policy}\n</policy>`;
  return planBlock ? withPlan(base, planBlock) : base;
}

/** The prompt version of the agent's instructions (recorded in every execution line). */
export const AGENT_PROMPT_VERSION = versionOf('exec-agent', AGENT_INSTRUCTIONS);

/** The conversation as the agent's chat: its own turns as assistant turns (with tool calls), results grouped per turn. */
export function agentChat(system: string, messages: readonly LoopMessage[]): ChatMessage[] {
  const chat: ChatMessage[] = [{ role: 'system', parts: [{ type: 'text', text: system }] }];
  for (const message of messages) {
    if (message.role === 'tool') {
      const result: ToolResult = {
        callId: message.tool_call_id,
        name: message.name,
        content: message.content,
        isError: message.error,
      };
      const last = chat.at(-1);
      if (last?.role === 'tool') last.results.push(result);
      else chat.push({ role: 'tool', results: [result] });
    } else if (message.role === 'assistant') {
      const parts = message.content ? [{ type: 'text' as const, text: message.content }] : [];
      const calls = (message.tool_calls ?? []).map((call) => ({
        id: call.id,
        name: call.name,
        arguments: (call.arguments ?? {}) as Record<string, unknown>,
      }));
      chat.push(
        calls.length > 0
          ? { role: 'assistant', parts, toolCalls: calls }
          : { role: 'assistant', parts: parts.length > 0 ? parts : [{ type: 'text', text: '' }] },
      );
    } else {
      chat.push({ role: 'user', parts: [{ type: 'text', text: message.content }] });
    }
  }
  return chat;
}

/** What a model agent is made of. */
export interface ModelAgentOptions {
  provider: Provider;
  system: string;
  tools: readonly ToolDefinition[];
  sampling: SamplingParams;
  /** The trial: distinct trials are distinct cache entries. */
  repeat: number;
  /** The task, told to an agent as code with the turn (`subject`); a model never sees it. */
  taskId?: string;
}

/** The agent's turn: how many agent messages the conversation holds so far (tau2's greeting included). */
const turnOf = (messages: readonly LoopMessage[]) =>
  messages.filter((message) => message.role === 'assistant').length;

/** A model as the agent. */
export function modelAgent(options: ModelAgentOptions): AgentPlayer {
  return async (messages, signal) => {
    const result = await options.provider.generate(
      {
        messages: agentChat(options.system, messages),
        promptVersion: AGENT_PROMPT_VERSION,
        json: false,
        sampling: options.sampling,
        repeat: options.repeat,
        role: 'agent',
        tools: [...options.tools],
        toolChoice: 'auto',
        ...(options.taskId !== undefined
          ? { subject: { id: options.taskId, turn: turnOf(messages) } }
          : {}),
      },
      signal,
    );
    return turnOfReply(result, 'call', messages.length);
  };
}
