/**
 * The execution loop (tau2-bench's half-duplex orchestrator, in this project's code): the agent greets, the user
 * simulator answers, and then each step passes one message — user → agent, agent → user or environment (its tool
 * calls), environment → agent (the results) — until the user sends a stop signal, the agent stops, or the step or
 * error limit is reached. Every message is recorded in order. The loop decides nothing about the reward.
 * In a dual-control environment (telecom) the user may answer with tool calls on their own device: they run
 * through the session's `callUserTool`, their results go back to the user, and the agent sees neither.
 */
import { isFatal, ProviderError } from '../errors.js';
import type { ProviderResult, Usage } from '../providers/provider.js';
import { redact } from '../redact.js';
import type { ExecMessage, ExecToolCall, Termination } from './environment.js';

/** One tool call of the agent, as recorded (the environment interface's `ExecToolCall`). */
export type LoopToolCall = ExecToolCall;

/** One message of the conversation: the environment interface's `ExecMessage`, as executions.jsonl records it. */
export type LoopMessage = ExecMessage;

/** How a conversation ended: tau2's termination reasons, plus an infrastructure failure (a model call that failed). */
export type LoopTermination = Termination;

/** A model turn: what was said and called, and what the call cost. */
export interface Turn {
  content: string | null;
  toolCalls: Array<LoopToolCall & { argumentsError?: string }>;
  usage: Usage | null;
  cached: boolean;
}

/**
 * A model's reply as a turn: a call without an id gets `PREFIX_<message count>_<n>`, and words left
 * empty beside tool calls are no words at all (null).
 */
export function turnOfReply(result: ProviderResult, idPrefix: string, messageCount: number): Turn {
  const toolCalls = (result.toolCalls ?? []).map((call, index) => ({
    id: call.id || `${idPrefix}_${messageCount}_${index}`,
    name: call.name,
    arguments: call.arguments,
    ...(call.argumentsError ? { argumentsError: call.argumentsError } : {}),
  }));
  const content = result.text === '' && toolCalls.length > 0 ? null : result.text;
  return { content, toolCalls, usage: result.usage, cached: result.cached };
}

/** The agent: answers the conversation so far (it sees every message, tool results included). */
export type AgentPlayer = (messages: readonly LoopMessage[], signal?: AbortSignal) => Promise<Turn>;
/** The user simulator: answers the conversation so far (it is shown only what was said to it, see user-simulator.ts). */
export type UserPlayer = (messages: readonly LoopMessage[], signal?: AbortSignal) => Promise<Turn>;

/** Where the agent's tool calls run: a session on a fresh database. */
export interface ToolSession {
  callTool(name: string, args: unknown): { content: string; error: boolean };
  /** Where the user's own tool calls run (dual control); absent where the user has no tools. */
  callUserTool?(name: string, args: unknown): { content: string; error: boolean };
}

/**
 * What the agent is shown of the conversation: everything except the user's own tool calls and
 * their results (tau2 routes those between the user and the environment only).
 */
export function agentView(messages: readonly LoopMessage[]): LoopMessage[] {
  return messages.flatMap((message): LoopMessage[] => {
    if (message.role === 'tool') return message.requestor === 'user' ? [] : [message];
    if (message.role === 'user' && message.tool_calls?.length)
      return message.content ? [{ role: 'user', content: message.content }] : [];
    return [message];
  });
}

/** Runs one turn's tool calls in order and records each result (an unreadable argument is an error result). */
function runToolCalls(
  calls: Turn['toolCalls'],
  run: (name: string, args: unknown) => { content: string; error: boolean },
  messages: LoopMessage[],
  byUser: boolean,
): number {
  let errors = 0;
  for (const call of calls) {
    const outcome = call.argumentsError
      ? { content: `Error: ${call.argumentsError}`, error: true }
      : run(call.name, call.arguments);
    if (outcome.error) errors += 1;
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: outcome.content,
      error: outcome.error,
      ...(byUser ? { requestor: 'user' as const } : {}),
    });
  }
  return errors;
}

const stripCall = ({ id, name, arguments: args }: LoopToolCall): LoopToolCall => ({
  id,
  name,
  arguments: args,
});

const noUserTools = (name: string) => ({
  content: `Error: Tool '${name}' not found.`,
  error: true,
});

/** The agent's first words (tau2's default first message; the user simulator answers it). */
export const AGENT_GREETING = 'Hi! How can I help you today?';

/** The user simulator's stop signals (tau2's): done, transferred to a human, or a request it cannot play. */
export const USER_STOP_SIGNALS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;
/** The agent's stop signal. */
export const AGENT_STOP_SIGNAL = '###STOP###';

/** tau2's defaults: at most 200 steps and 10 tool errors per conversation. */
export const DEFAULT_MAX_STEPS = 200;
export const DEFAULT_MAX_ERRORS = 10;

/** Calls and tokens of one role in a conversation. */
export interface LoopRoleUsage {
  calls: number;
  cached_calls: number;
  input_tokens: number;
  output_tokens: number;
}

/** A finished conversation. */
export interface LoopResult {
  messages: LoopMessage[];
  termination: LoopTermination;
  /** The stop signal that ended it, when one did. */
  stopSignal: string | null;
  steps: number;
  toolErrors: number;
  /** Why it ended on an infrastructure error (which role's call failed, and the redacted message). */
  error?: { role: 'agent' | 'user'; kind: string; message: string };
  usage: { agent: LoopRoleUsage; user: LoopRoleUsage };
}

/** What a conversation is run with. */
export interface LoopOptions {
  agent: AgentPlayer;
  user: UserPlayer;
  session: ToolSession;
  maxSteps?: number;
  maxErrors?: number;
  /** The user's first message when it was made beforehand (shared by every mode of a task's trial). */
  firstUserMessage?: Turn;
  /**
   * tau2's solo mode: no user and no greeting; the agent speaks first and every turn goes back to
   * it. It ends by returning an empty turn (no text, no tool call: a script with nothing left), or
   * at a limit. A scripted replay runs so, and so meets every limit a model agent meets.
   */
  solo?: boolean;
  signal?: AbortSignal;
}

/** A role's usage before any call. */
export const emptyUsage = (): LoopRoleUsage => ({
  calls: 0,
  cached_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
});

/** Counts one turn's call into its role's usage (a cached call costs no tokens). */
export function countTurn(usage: LoopRoleUsage, turn: Turn): void {
  usage.calls += 1;
  if (turn.cached) usage.cached_calls += 1;
  else {
    usage.input_tokens += turn.usage?.inputTokens ?? 0;
    usage.output_tokens += turn.usage?.outputTokens ?? 0;
  }
}

/** The user's stop signal in a message, if any. */
export function userStopSignal(content: string | null): string | null {
  return USER_STOP_SIGNALS.find((signal) => content?.includes(signal)) ?? null;
}

type Route = 'user' | 'agent' | 'env' | 'user-env';

/** Where a conversation stands: its messages, usage, counters, who speaks next, and how it ended. */
interface LoopState {
  messages: LoopMessage[];
  usage: { agent: LoopRoleUsage; user: LoopRoleUsage };
  steps: number;
  toolErrors: number;
  to: Route;
  pending: Turn['toolCalls'];
  termination: LoopTermination | null;
  stopSignal: string | null;
}

/** A user turn: tool calls go to the user's device (never to the agent, and no stop, as in tau2); words to the agent. */
function takeUserTurn(state: LoopState, turn: Turn): void {
  if (turn.toolCalls.length > 0) {
    state.messages.push({
      role: 'user',
      content: turn.content ?? '',
      tool_calls: turn.toolCalls.map(stripCall),
    });
    state.pending = turn.toolCalls;
    state.to = 'user-env';
    return;
  }
  state.messages.push({ role: 'user', content: turn.content ?? '' });
  state.stopSignal = userStopSignal(turn.content);
  if (state.stopSignal) state.termination = 'user_stop';
  state.to = 'agent';
}

/** An agent turn; false when a solo agent ended with an empty turn (no step is counted for it). */
function takeAgentTurn(state: LoopState, turn: Turn, solo: boolean): boolean {
  if (solo && !turn.content && turn.toolCalls.length === 0) {
    state.termination = 'agent_stop';
    return false;
  }
  state.messages.push({
    role: 'assistant',
    content: turn.content,
    ...(turn.toolCalls.length > 0 ? { tool_calls: turn.toolCalls.map(stripCall) } : {}),
  });
  if (turn.content?.includes(AGENT_STOP_SIGNAL)) {
    state.termination = 'agent_stop';
    state.stopSignal = AGENT_STOP_SIGNAL;
  }
  state.pending = turn.toolCalls;
  state.to = turn.toolCalls.length > 0 ? 'env' : solo ? 'agent' : 'user';
  return true;
}

/** One step of whoever is next; false when the conversation ended without a step. */
async function step(options: LoopOptions, state: LoopState, solo: boolean): Promise<boolean> {
  if (state.to === 'user') {
    const turn = await options.user(state.messages, options.signal);
    countTurn(state.usage.user, turn);
    takeUserTurn(state, turn);
  } else if (state.to === 'agent') {
    const turn = await options.agent(agentView(state.messages), options.signal);
    countTurn(state.usage.agent, turn);
    return takeAgentTurn(state, turn, solo);
  } else if (state.to === 'env') {
    const run = options.session.callTool.bind(options.session);
    state.toolErrors += runToolCalls(state.pending, run, state.messages, false);
    state.to = 'agent';
  } else {
    const run = options.session.callUserTool?.bind(options.session) ?? noUserTools;
    state.toolErrors += runToolCalls(state.pending, run, state.messages, true);
    state.to = 'user';
  }
  return true;
}

/** Runs one conversation to its end. Fatal errors (key rejected, abort, budget) propagate; other call failures end it. */
export async function runConversation(options: LoopOptions): Promise<LoopResult> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const solo = Boolean(options.solo);
  const state: LoopState = {
    messages: solo ? [] : [{ role: 'assistant', content: AGENT_GREETING }],
    usage: { agent: emptyUsage(), user: emptyUsage() },
    steps: 0,
    toolErrors: 0,
    to: solo ? 'agent' : 'user',
    pending: [],
    termination: null,
    stopSignal: null,
  };
  let error: LoopResult['error'];
  if (options.firstUserMessage) {
    state.steps += 1;
    takeUserTurn(state, options.firstUserMessage);
  }
  while (!state.termination) {
    try {
      if (!(await step(options, state, solo))) break;
    } catch (caught) {
      if (isFatal(caught) || !(caught instanceof ProviderError)) throw caught;
      const role = state.to === 'user' ? 'user' : 'agent';
      error = { role, kind: caught.kind, message: redact(caught.message) };
      state.termination = 'infrastructure_error';
      break;
    }
    state.steps += 1;
    // As tau2: the limits are checked only when no tool result is owed to the agent.
    if (state.termination || state.to === 'env' || state.to === 'user-env') continue;
    if (state.steps >= maxSteps) state.termination = 'max_steps';
    else if (state.toolErrors >= maxErrors) state.termination = 'too_many_errors';
  }
  return {
    messages: state.messages,
    termination: state.termination!, // every way out of the loop sets it
    stopSignal: state.stopSignal,
    steps: state.steps,
    toolErrors: state.toolErrors,
    ...(error ? { error } : {}),
    usage: state.usage,
  };
}
