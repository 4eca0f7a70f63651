/**
 * A provider result → an OpenAI chat-completions reply: one JSON body, or server-sent-event chunks when the client
 * streams. The model is called without streaming, so a streamed reply is the finished reply cut into chunks in
 * the order OpenAI sends them (role, content, tool calls, finish reason, usage, `[DONE]`).
 */
import type { FinishReason, ModelToolCall, ProviderResult, Usage } from '../providers/provider.js';

/** What identifies a reply: its id, creation time (seconds) and the model name the client asked for. */
export interface ReplyIdentity {
  id: string;
  created: number;
  model: string;
}

const FINISH: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'stop',
  other: 'stop',
  unknown: 'stop',
};

/** The wire finish reason; a reply that calls tools always finishes with `tool_calls`, as OpenAI's do. */
function finishOf(result: ProviderResult): string {
  return result.toolCalls?.length ? 'tool_calls' : FINISH[result.finishReason];
}

/** Tool-call arguments as the model wrote them: unreadable ones are passed on verbatim, never replaced. */
export const argumentsText = (call: ModelToolCall): string =>
  call.rawArguments ?? JSON.stringify(call.arguments);

function wireToolCalls(calls: readonly ModelToolCall[]) {
  return calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
}

/** The usage the upstream reported, or nothing: never zeros standing for "unknown". */
function wireUsage(usage: Usage | null) {
  if (!usage) return undefined;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedInputTokens !== undefined
      ? { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }
      : {}),
    ...(usage.reasoningTokens !== undefined
      ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }
      : {}),
  };
}

/** OpenAI's logprobs, when the upstream gave them (asked for with `logprobs`). */
function wireLogprobs(result: ProviderResult): unknown {
  const logprobs = result.vendorMetadata?.openai?.logprobs;
  return Array.isArray(logprobs) ? { content: logprobs, refusal: null } : null;
}

/** The reasoning text, as OpenAI-compatible servers show it (`reasoning_content`), when there was any. */
function reasoningText(result: ProviderResult): string | undefined {
  const text = (result.reasoning ?? []).map((part) => part.text).join('\n\n');
  return text === '' ? undefined : text;
}

/** The non-streaming reply body. */
export function completionBody(
  identity: ReplyIdentity,
  result: ProviderResult,
): Record<string, unknown> {
  const calls = result.toolCalls ?? [];
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: calls.length > 0 && result.text === '' ? null : result.text,
  };
  if (calls.length > 0) message.tool_calls = wireToolCalls(calls);
  const reasoning = reasoningText(result);
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  const usage = wireUsage(result.usage);
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [
      { index: 0, message, finish_reason: finishOf(result), logprobs: wireLogprobs(result) },
    ],
    ...(usage ? { usage } : {}),
  };
}

/** Longest piece of text in one streamed chunk (clients render chunks as they come). */
const CHUNK_CHARS = 256;

/** The streamed reply as SSE `data:` lines, ending with `[DONE]`. */
export function completionChunks(
  identity: ReplyIdentity,
  result: ProviderResult,
  includeUsage: boolean,
): string[] {
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null,
    extra: Record<string, unknown> = {},
  ) =>
    JSON.stringify({
      id: identity.id,
      object: 'chat.completion.chunk',
      created: identity.created,
      model: identity.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
  const lines = [chunk({ role: 'assistant', content: '' }, null)];
  const reasoning = reasoningText(result);
  if (reasoning !== undefined) lines.push(chunk({ reasoning_content: reasoning }, null));
  for (let start = 0; start < result.text.length; start += CHUNK_CHARS)
    lines.push(chunk({ content: result.text.slice(start, start + CHUNK_CHARS) }, null));
  wireToolCalls(result.toolCalls ?? []).forEach((call, index) =>
    lines.push(chunk({ tool_calls: [{ index, ...call }] }, null)),
  );
  lines.push(chunk({}, finishOf(result)));
  const usage = wireUsage(result.usage);
  if (includeUsage && usage)
    lines.push(
      JSON.stringify({
        id: identity.id,
        object: 'chat.completion.chunk',
        created: identity.created,
        model: identity.model,
        choices: [],
        usage,
      }),
    );
  return [...lines.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
}
