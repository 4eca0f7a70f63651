/**
 * A provider result → a Responses API reply: one `response` object, or the server-sent events a streaming
 * client reads (`response.created` … `response.completed`), cut from the finished reply in the order OpenAI
 * sends them. Tool-call arguments go out as the model wrote them; usage only as the upstream reported it.
 */
import type { ProviderResult } from '../providers/provider.js';
import { argumentsText, type ReplyIdentity } from './openai-response.js';

type Item = Record<string, unknown>;

/** The output items: reasoning (its text as a summary), the message, then each function call. */
function outputItems(identity: ReplyIdentity, result: ProviderResult): Item[] {
  const items: Item[] = [];
  const reasoning = (result.reasoning ?? []).map((part) => part.text).join('\n\n');
  if (reasoning !== '')
    items.push({
      type: 'reasoning',
      id: `rs_${identity.id}`,
      summary: [{ type: 'summary_text', text: reasoning }],
    });
  if (result.text !== '' || !result.toolCalls?.length)
    items.push({
      type: 'message',
      id: `msg_${identity.id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: result.text, annotations: [] }],
    });
  for (const call of result.toolCalls ?? [])
    items.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: argumentsText(call),
      status: 'completed',
    });
  return items;
}

function usageOf(result: ProviderResult): Record<string, unknown> | null {
  const usage = result.usage;
  if (!usage) return null;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The `response` object, `status` and `output` as given (in progress while streaming starts). */
function responseObject(
  identity: ReplyIdentity,
  result: ProviderResult,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: Item[],
): Record<string, unknown> {
  const usage = status === 'in_progress' ? null : usageOf(result);
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.created,
    status,
    model: identity.model,
    output,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    error: null,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    ...(usage ? { usage } : {}),
  };
}

const finalStatus = (result: ProviderResult) =>
  result.finishReason === 'length' ? 'incomplete' : 'completed';

/** The non-streaming reply body. */
export function responsesBody(
  identity: ReplyIdentity,
  result: ProviderResult,
): Record<string, unknown> {
  const output = outputItems(identity, result);
  return {
    ...responseObject(identity, result, finalStatus(result), output),
    output_text: result.text,
  };
}

/** The streamed reply as SSE events, each `event: TYPE` with its `data:`. */
export function responsesEvents(identity: ReplyIdentity, result: ProviderResult): string[] {
  const events: Item[] = [];
  const output = outputItems(identity, result);
  events.push({
    type: 'response.created',
    response: responseObject(identity, result, 'in_progress', []),
  });
  events.push({
    type: 'response.in_progress',
    response: responseObject(identity, result, 'in_progress', []),
  });
  output.forEach((item, output_index) => events.push(...itemEvents(item, output_index)));
  const done = finalStatus(result) === 'completed' ? 'response.completed' : 'response.incomplete';
  events.push({
    type: done,
    response: responseObject(identity, result, finalStatus(result), output),
  });
  return events.map(
    (event, sequence_number) =>
      `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`,
  );
}

/** One output item's events: added, its deltas and their ends, done. */
function itemEvents(item: Item, output_index: number): Item[] {
  const item_id = item.id;
  if (item.type === 'message') {
    const text = ((item.content as Item[])[0]?.text as string) ?? '';
    const part = { type: 'output_text', text: '', annotations: [] };
    return [
      {
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      },
      { type: 'response.content_part.added', item_id, output_index, content_index: 0, part },
      {
        type: 'response.output_text.delta',
        item_id,
        output_index,
        content_index: 0,
        delta: text,
        logprobs: [],
      },
      {
        type: 'response.output_text.done',
        item_id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      },
      {
        type: 'response.content_part.done',
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      },
      { type: 'response.output_item.done', output_index, item },
    ];
  }
  if (item.type === 'function_call') {
    const args = item.arguments as string;
    return [
      {
        type: 'response.output_item.added',
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      },
      { type: 'response.function_call_arguments.delta', item_id, output_index, delta: args },
      { type: 'response.function_call_arguments.done', item_id, output_index, arguments: args },
      { type: 'response.output_item.done', output_index, item },
    ];
  }
  return [
    { type: 'response.output_item.added', output_index, item },
    { type: 'response.output_item.done', output_index, item },
  ];
}
