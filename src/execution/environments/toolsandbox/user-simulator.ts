/**
 * ToolSandbox's user simulator (`--user-model`), after `roles/openai_api_user.py` and its prompt
 * and few-shot examples (`scenarios/user_simulator_few_shot_examples.py`), in this project's
 * words: the model plays "User A", who wants "User B" (the agent) to do one task, answers only
 * from what the task says, speaks briefly and casually, lets B switch the phone's settings when
 * needed, and ends the conversation with the `end_conversation` tool once B is done or has failed
 * five times. It sees only the words exchanged with the agent (never a tool call or result), with
 * roles flipped so that it speaks as the assistant, as ToolSandbox's user role does; the tool is
 * offered on every turn, since it always answers an agent message.
 */
import type {
  ChatMessage,
  Provider,
  SamplingParams,
  ToolDefinition,
} from '../../../providers/provider.js';
import { versionOf } from '../../../settings/prompt.js';
import { turnOfReply, type LoopMessage, type UserPlayer } from '../../loop.js';

/** The rules of the role (ToolSandbox's seven, reworded). */
export const TOOLSANDBOX_USER_RULES = `Role-play from now on: you are a person (User A) chatting with someone else (User B) who has a
phone with tools. You are not an assistant.
Keep to these rules:
0. Speak only as User A, a user who wants something done. Never behave like an assistant and
   never put questions to User B about what they need.
1. When User B asks you something, answer it truthfully from the task below and nothing else.
   Never invent a fact you were not given.
2. Write the way people text: short, plain and casual.
3. If User B says it could not do the task, give any further detail you have; if you have none,
   tell User B to find it out with its own tools.
4. You are fine with User B turning low battery mode off, or turning cellular service, wifi or
   location service on, if that is what the task takes.
5. Once User B has done the task, stop role-playing and call the tool end_conversation, even if
   you cannot check that the result is right.
6. If User B still cannot do the task after five attempts, stop role-playing and call the tool
   end_conversation.`;

/**
 * Two example conversations of the role (this project's own, in the manner of ToolSandbox's
 * few-shot examples).
 */
export const TOOLSANDBOX_USER_EXAMPLES = `Example 1. Task: "Ask for the phone number of your (User A's) sister Maya."
User A: what's my sister's number
User B: Sure, what is your sister's name?
User A: Maya
User B: Maya's phone number is +14155550123.
User A: [calls end_conversation]

Example 2. Task: "Set a reminder to water the plants tomorrow at 9am."
User A: remind me to water the plants
User B: When would you like to be reminded?
User A: tomorrow 9am
User B: I could not create the reminder because I do not know today's date.
User A: can't you look up the date yourself?
User B: Done: you will be reminded to water the plants tomorrow at 9:00 AM.
User A: [calls end_conversation]`;

/** The simulator's system text for one task. */
export function toolSandboxUserSystemText(task: string): string {
  return `${TOOLSANDBOX_USER_RULES}\n\n${TOOLSANDBOX_USER_EXAMPLES}\n\nYour task, as User A, for User B to carry out: ${task}`;
}

/** The prompt version of the simulator (recorded in every execution line). */
export const TOOLSANDBOX_USER_PROMPT_VERSION = versionOf(
  'toolsandbox-user',
  `${TOOLSANDBOX_USER_RULES}\n${TOOLSANDBOX_USER_EXAMPLES}`,
);

/** The user's one tool, as listed to the simulator. */
export const END_CONVERSATION_TOOL: ToolDefinition = {
  name: 'end_conversation',
  description: 'End the conversation with User B.',
  parameters: { type: 'object', properties: {}, required: [] },
};

const TASK_MARKER = 'want User B to complete: ';

/**
 * The user's task in a scenario's starting message log: the last system message to the user (the
 * few-shot examples' own precede it), after ToolSandbox's fixed instruction text.
 */
export function userTaskOf(systemToUser: string): string {
  const at = systemToUser.lastIndexOf(TASK_MARKER);
  return (at < 0 ? systemToUser : systemToUser.slice(at + TASK_MARKER.length)).trim();
}

/**
 * The conversation as the simulator sees it: the agent's words as `user` turns, its own as
 * `assistant` turns.
 */
export function toolSandboxUserChat(
  system: string,
  messages: readonly LoopMessage[],
): ChatMessage[] {
  const chat: ChatMessage[] = [{ role: 'system', parts: [{ type: 'text', text: system }] }];
  for (const message of messages) {
    if (message.role === 'user' && !message.tool_calls?.length)
      chat.push({ role: 'assistant', parts: [{ type: 'text', text: message.content }] });
    else if (message.role === 'assistant' && !message.tool_calls?.length && message.content)
      chat.push({ role: 'user', parts: [{ type: 'text', text: message.content }] });
  }
  return chat;
}

/** What a ToolSandbox user simulator is made of. */
export interface ToolSandboxUserOptions {
  provider: Provider;
  task: string;
  sampling: SamplingParams;
  repeat: number;
}

/** A model as ToolSandbox's user (role `user` in usage and cost). */
export function toolSandboxUser(options: ToolSandboxUserOptions): UserPlayer {
  const system = toolSandboxUserSystemText(options.task);
  return async (messages, signal) => {
    const result = await options.provider.generate(
      {
        messages: toolSandboxUserChat(system, messages),
        promptVersion: TOOLSANDBOX_USER_PROMPT_VERSION,
        json: false,
        sampling: options.sampling,
        repeat: options.repeat,
        role: 'user',
        tools: [END_CONVERSATION_TOOL],
        toolChoice: 'auto',
      },
      signal,
    );
    return turnOfReply(result, 'user_call', messages.length);
  };
}
