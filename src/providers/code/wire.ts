/**
 * The one JSON shape every planner and agent as code speaks (CONTRACT.md, Model specs): a request
 * built from exactly what a model would be sent, and the answer read back strictly, every problem
 * a one-line error naming the spec and the field.
 */
import { ProviderError } from '../../errors.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import { readImage } from '../image-bytes.js';
import type { ChatMessage, ModelToolCall, ProviderRequest, Usage } from '../provider.js';

/** A message as the code receives it: OpenAI-like, content as text or parts. */
export type WireMessage =
  | { role: 'system' | 'user' | 'assistant'; content: string | WirePart[] }
  | {
      role: 'assistant';
      content: string;
      tool_calls: { id: string; name: string; arguments: Record<string, unknown> | string }[];
    }
  | { role: 'tool'; tool_call_id: string; name: string; content: string; is_error: boolean };

/** A part of a message with more than one text, or an image: its media type and base64 bytes. */
export type WirePart =
  { type: 'text'; text: string } | { type: 'image'; media_type: string; data: string };

/** What a planner as code gets per case, or an agent per turn. */
export type WireRequest = Record<string, unknown> & {
  messages: WireMessage[];
  tools: { name: string; description: string; parameters: Record<string, unknown> }[];
};

/** The answer read back: text or tool calls, with the usage and cost the code reported. */
export interface WireAnswer {
  text: string;
  toolCalls: ModelToolCall[];
  usage: Usage | null;
  costUsd?: number;
}

/** The request for `request`: `{id, split, repeat, …}` for a case, `{task_id, turn, …}` for a turn. */
export async function toWireRequest(
  request: ProviderRequest,
  maxImageBytes: number = DEFAULT_LIMITS.imageBytes,
): Promise<WireRequest> {
  const messages = (
    await Promise.all(request.messages.map((message) => toWireMessages(message, maxImageBytes)))
  ).flat();
  const tools = (request.tools ?? []).map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const subject = request.subject;
  if (subject?.turn !== undefined)
    return { task_id: subject.id, turn: subject.turn, messages, tools };
  return {
    ...(subject ? { id: subject.id } : {}),
    ...(subject?.split !== undefined ? { split: subject.split } : {}),
    repeat: request.repeat,
    messages,
    tools,
  };
}

async function toWireMessages(message: ChatMessage, maxImageBytes: number): Promise<WireMessage[]> {
  if (message.role === 'tool')
    return message.results.map((result) => ({
      role: 'tool',
      tool_call_id: result.callId,
      name: result.name,
      content: result.content,
      is_error: result.isError,
    }));
  const parts: WirePart[] = await Promise.all(
    message.parts.map(async (part): Promise<WirePart> => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const image = await readImage(part.file, maxImageBytes);
      return { type: 'image', media_type: image.mediaType, data: image.base64 };
    }),
  );
  const allText = parts.every((part) => part.type === 'text');
  const text = allText ? parts.map((part) => (part as { text: string }).text).join('\n\n') : '';
  if ('toolCalls' in message)
    return [
      {
        role: 'assistant',
        content: text,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.rawArguments ?? call.arguments,
        })),
      },
    ];
  return [{ role: message.role, content: allText && parts.length <= 1 ? text : parts }];
}

/** A failure the code reported or caused: that case's error, not retried (the code is deterministic). */
export function codeError(
  provider: string,
  message: string,
  kind: ProviderError['kind'] = 'bad-response',
): ProviderError {
  return new ProviderError({
    provider,
    kind,
    retryable: false,
    message: `${provider}: ${message}`,
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads an answer (`{id?, text, usage?, cost_usd?}`, `{tool_calls}` or `{error}`); throws a `ProviderError` naming the field. */
export function readWireAnswer(
  provider: string,
  value: unknown,
  options: { expectedId?: string; callPrefix?: string } = {},
): WireAnswer {
  const { expectedId, callPrefix = 'call_' } = options;
  if (!isObject(value)) throw codeError(provider, 'the answer is not a JSON object');
  if (expectedId !== undefined && value.id !== undefined && value.id !== expectedId)
    throw codeError(
      provider,
      `answer field "id" is ${JSON.stringify(value.id)}, expected ${JSON.stringify(expectedId)}`,
    );
  if (value.error !== undefined) {
    const said = typeof value.error === 'string' ? value.error : JSON.stringify(value.error);
    throw codeError(provider, `answered an error: ${said.slice(0, 500)}`, 'client');
  }
  const toolCalls = readToolCalls(provider, value.tool_calls, callPrefix);
  if (value.text !== undefined && typeof value.text !== 'string')
    throw codeError(provider, 'answer field "text" must be a string');
  if (value.text === undefined && toolCalls.length === 0)
    throw codeError(provider, 'the answer has neither "text" nor "tool_calls" (nor "error")');
  const costUsd = value.cost_usd;
  if (
    costUsd !== undefined &&
    (typeof costUsd !== 'number' || !Number.isFinite(costUsd) || costUsd < 0)
  )
    throw codeError(provider, 'answer field "cost_usd" must be a non-negative number');
  return {
    text: (value.text as string | undefined) ?? '',
    toolCalls,
    usage: readUsage(provider, value.usage),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

function readUsage(provider: string, value: unknown): Usage | null {
  if (value === undefined || value === null) return null;
  const count = (field: string): number => {
    const n = isObject(value) ? value[field] : undefined;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      throw codeError(provider, `answer field "usage.${field}" must be a non-negative integer`);
    return n;
  };
  return { inputTokens: count('input_tokens'), outputTokens: count('output_tokens') };
}

function readToolCalls(provider: string, value: unknown, prefix: string): ModelToolCall[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw codeError(provider, 'answer field "tool_calls" must be an array');
  return value.map((call, index) => {
    const where = `answer field "tool_calls[${index}]`;
    if (!isObject(call) || typeof call.name !== 'string' || call.name === '')
      throw codeError(provider, `${where}.name" must be a non-empty string`);
    const args = call.arguments ?? {};
    if (!isObject(args)) throw codeError(provider, `${where}.arguments" must be a JSON object`);
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `${prefix}${index + 1}`;
    return { id, name: call.name, arguments: args };
  });
}
