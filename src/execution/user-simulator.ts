/**
 * The user simulator (`--user-model`): a model that plays the task's user scenario, as tau2-bench's does. It is
 * shown only what the agent said to it (never a tool call or result), with roles flipped so that the model speaks
 * as the user, and it ends the conversation with tau2's stop signals. In a dual-control environment (telecom)
 * it also has the user's own tools: it sees its own tool calls and their results (never the agent's), and gets
 * the environment's instructions for its device after the guidelines.
 */
import type {
  ChatMessage,
  Provider,
  SamplingParams,
  ToolDefinition,
  ToolResult,
} from '../providers/provider.js';
import { versionOf } from '../settings/prompt.js';
import { turnOfReply, type LoopMessage, type UserPlayer } from './loop.js';

/** How the simulated user behaves (this project's words, tau2's rules and signals). */
export const USER_GUIDELINES = `You are playing a customer who contacts a customer service agent. The scenario below says who you are, why you are calling, what you know and how you behave. Stay in that role for the whole conversation.

Rules:
- Write only what the customer would say: one message per turn, short and natural. Never play the agent.
- Reveal what you know a little at a time, when the agent asks for it or when it becomes relevant; do not recite the whole scenario at once.
- Never invent facts the scenario does not give you (ids, numbers, addresses, preferences). If the agent asks for something you do not know, say so.
- Follow the scenario's instructions about what you want and what you accept; do not agree to anything it says you would refuse.
- Do not end the conversation before your request is dealt with: while the agent is still working on it, keep going.
- When everything you wanted is done, or the agent cannot help any further, end the conversation: write the token ###STOP### as your whole message.
- If the agent transfers you to a human agent, write ###TRANSFER### as your whole message.
- If the scenario does not tell you how to answer and you cannot go on in the role, write ###OUT-OF-SCOPE###.`;

/** The simulator's system text: the guidelines (and, with user tools, the device instructions) and the scenario. */
export function userSystemText(
  scenario: string,
  persona: string | null,
  toolGuidelines?: string,
): string {
  const who = persona ? `Persona:\n${persona}\n\n` : '';
  const guidelines = toolGuidelines ? `${USER_GUIDELINES}\n\n${toolGuidelines}` : USER_GUIDELINES;
  return `${guidelines}\n\n<scenario>\n${who}${scenario}\n</scenario>`;
}

/** The prompt version of the simulator's guidelines. */
export const USER_PROMPT_VERSION = versionOf('exec-user', USER_GUIDELINES);

/**
 * The conversation as the simulator sees it: the agent's messages to the user become `user` turns and the user's own
 * messages `assistant` turns; tool calls and tool results (between the agent and the environment) are left out.
 */
export function userChat(system: string, messages: readonly LoopMessage[]): ChatMessage[] {
  const chat: ChatMessage[] = [{ role: 'system', parts: [{ type: 'text', text: system }] }];
  for (const message of messages) {
    if (message.role === 'user' && message.tool_calls?.length) {
      const parts = message.content ? [{ type: 'text' as const, text: message.content }] : [];
      const toolCalls = message.tool_calls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: (call.arguments ?? {}) as Record<string, unknown>,
      }));
      chat.push({ role: 'assistant', parts, toolCalls });
    } else if (message.role === 'user')
      chat.push({ role: 'assistant', parts: [{ type: 'text', text: message.content }] });
    else if (message.role === 'tool' && message.requestor === 'user') {
      // The user's own device answering: results of its calls, grouped per turn.
      const result: ToolResult = {
        callId: message.tool_call_id,
        name: message.name,
        content: message.content,
        isError: message.error,
      };
      const last = chat.at(-1);
      if (last?.role === 'tool') last.results.push(result);
      else chat.push({ role: 'tool', results: [result] });
    } else if (message.role === 'assistant' && !message.tool_calls?.length && message.content)
      chat.push({ role: 'user', parts: [{ type: 'text', text: message.content }] });
  }
  return chat;
}

/** What a model user simulator is made of. */
export interface ModelUserOptions {
  provider: Provider;
  scenario: string;
  persona: string | null;
  sampling: SamplingParams;
  repeat: number;
  /** The user's own tools (dual control), and the environment's instructions for them. */
  tools?: readonly ToolDefinition[];
  toolGuidelines?: string;
}

/** A model as the user simulator (role `user` in usage and cost). */
export function modelUser(options: ModelUserOptions): UserPlayer {
  const tools = options.tools?.length ? [...options.tools] : null;
  const system = userSystemText(
    options.scenario,
    options.persona,
    tools ? options.toolGuidelines : undefined,
  );
  return async (messages, signal) => {
    const result = await options.provider.generate(
      {
        messages: userChat(system, messages),
        promptVersion: USER_PROMPT_VERSION,
        json: false,
        sampling: options.sampling,
        repeat: options.repeat,
        role: 'user',
        ...(tools ? { tools, toolChoice: 'auto' as const } : {}),
      },
      signal,
    );
    return turnOfReply(result, 'user_call', messages.length);
  };
}
