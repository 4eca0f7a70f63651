/**
 * One ToolSandbox conversation played by models (ToolSandbox's `Scenario.play`): the scenario's
 * message log already holds the user's first words, so the agent answers first; then whoever the
 * last message is addressed to speaks — the agent (words to the user, or tool calls that the
 * execution environment answers), or the user simulator (words, or `end_conversation`) — until the
 * conversation is no longer active or the log has grown by the scenario's `max_messages`. Every
 * turn is written into the execution context as ToolSandbox's roles write it (session.ts), and
 * recorded as executions.jsonl's messages.
 */
import { isFatal, ProviderError } from '../../../errors.js';
import { redact } from '../../../redact.js';
import {
  countTurn,
  emptyUsage,
  type AgentPlayer,
  type LoopResult,
  type Turn,
  type UserPlayer,
} from '../../loop.js';
import type { ExecMessage } from '../../environment.js';
import type { SessionToolCall, ToolSandboxSession } from './session.js';

/** What a conversation is played with. */
export interface PlayOptions {
  session: ToolSandboxSession;
  agent: AgentPlayer;
  user: UserPlayer;
  /** The scenario's first user message (already in the log; recorded first). */
  firstUserMessage: string;
  /** The scenario's `max_messages`: how many messages the log may grow by. */
  maxMessages: number;
  /** agent-facing tool name -> execution-facing name (the tool-name-scrambled variants differ). */
  names: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/**
 * The calls of a turn as the session runs them (an unreadable argument string stays a string:
 * Python's TypeError).
 */
function sessionCalls(turn: Turn, names: Readonly<Record<string, string>>): SessionToolCall[] {
  return turn.toolCalls.map((call) => ({
    id: call.id,
    name: names[call.name] ?? call.name,
    arguments: call.argumentsError ? String(call.arguments ?? '') : call.arguments,
  }));
}

interface State {
  messages: ExecMessage[];
  toolErrors: number;
}

/** Runs a turn's tool calls in the session and records the calls and their results. */
function recordCalls(state: State, options: PlayOptions, role: 'agent' | 'user', turn: Turn): void {
  const calls = sessionCalls(turn, options.names);
  const recorded = turn.toolCalls.map(({ id, name, arguments: args }) => ({
    id,
    name,
    arguments: args,
  }));
  state.messages.push(
    role === 'agent'
      ? { role: 'assistant', content: turn.content, tool_calls: recorded }
      : { role: 'user', content: turn.content ?? '', tool_calls: recorded },
  );
  const { session } = options;
  const results = role === 'agent' ? session.agentCalls(calls) : session.userCalls(calls);
  for (const [i, result] of results.entries()) {
    if (result.error) state.toolErrors += 1;
    state.messages.push({
      role: 'tool',
      tool_call_id: result.id,
      name: turn.toolCalls[i]!.name,
      content: result.content,
      error: result.error,
      ...(role === 'user' ? { requestor: 'user' as const } : {}),
    });
  }
}

/** Records a turn's words, written into the log as the speaker's message to the other party. */
function recordWords(state: State, options: PlayOptions, role: 'agent' | 'user', turn: Turn) {
  const text = turn.content ?? '';
  if (role === 'agent') options.session.agentSays(text);
  else options.session.userSays(text);
  state.messages.push(
    role === 'agent' ? { role: 'assistant', content: text } : { role: 'user', content: text },
  );
}

/** Plays the conversation to its end; fatal errors (key rejected, abort, budget) propagate. */
export async function playConversation(options: PlayOptions): Promise<LoopResult> {
  const { session } = options;
  const state: State = {
    messages: [{ role: 'user', content: options.firstUserMessage }],
    toolErrors: 0,
  };
  const usage = { agent: emptyUsage(), user: emptyUsage() };
  const cap = session.lastIndex + options.maxMessages;
  let steps = 1;
  let to: 'agent' | 'user' = 'agent';
  let error: LoopResult['error'];
  while (session.active && session.lastIndex < cap) {
    try {
      const player = to === 'agent' ? options.agent : options.user;
      const view = to === 'agent' ? state.messages.filter(notUserSide) : state.messages;
      const turn = numbered(await player(view, options.signal), state.messages.length);
      countTurn(usage[to], turn);
      steps += 1;
      if (turn.toolCalls.length > 0) recordCalls(state, options, to, turn);
      else {
        recordWords(state, options, to, turn);
        to = to === 'agent' ? 'user' : 'agent';
      }
    } catch (caught) {
      if (isFatal(caught) || !(caught instanceof ProviderError)) throw caught;
      error = { role: to, kind: caught.kind, message: redact(caught.message) };
      break;
    }
  }
  const termination = error
    ? 'infrastructure_error'
    : !session.active
      ? 'user_stop'
      : 'max_messages';
  return {
    messages: state.messages,
    termination,
    stopSignal: termination === 'user_stop' ? 'end_conversation' : null,
    steps,
    toolErrors: state.toolErrors,
    ...(error ? { error } : {}),
    usage,
  };
}

/**
 * A turn's tool calls with ids of the conversation's own (`call_<message>_<n>`): a model's ids
 * (or a fake's request counter) would make two runs of one conversation differ.
 */
function numbered(turn: Turn, at: number): Turn {
  return {
    ...turn,
    toolCalls: turn.toolCalls.map((call, i) => ({ ...call, id: `call_${at}_${i}` })),
  };
}

/** The agent never sees the user's own tool calls or their results. */
function notUserSide(message: ExecMessage): boolean {
  if (message.role === 'tool') return message.requestor !== 'user';
  return !(message.role === 'user' && message.tool_calls?.length);
}
