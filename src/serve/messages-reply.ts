/**
 * A provider result → an Anthropic Messages reply: one `message` object, or the server-sent events a streaming
 * client reads (`message_start` … `message_stop`). Unreadable tool arguments cannot be a `tool_use` input (an
 * object): the input is then empty and the `x-apb-tool-arguments-error` header says what the model wrote.
 */
import type { ProviderResult } from '../providers/provider.js';
import type { ReplyIdentity } from './openai-response.js';

type Block = Record<string, unknown>;

const STOP: Partial<Record<ProviderResult['finishReason'], string>> = {
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
};

const stopReason = (result: ProviderResult) =>
  result.toolCalls?.length ? 'tool_use' : (STOP[result.finishReason] ?? 'end_turn');

/** The content blocks: thinking, text, then each tool use. */
function blocksOf(result: ProviderResult): Block[] {
  const blocks: Block[] = [];
  for (const part of result.reasoning ?? []) {
    const signature = part.vendorMetadata?.anthropic?.signature;
    blocks.push({
      type: 'thinking',
      thinking: part.text,
      signature: typeof signature === 'string' ? signature : '',
    });
  }
  if (result.text !== '' || !result.toolCalls?.length)
    blocks.push({ type: 'text', text: result.text });
  for (const call of result.toolCalls ?? [])
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return blocks;
}

function usageOf(result: ProviderResult): Record<string, unknown> | null {
  if (!result.usage) return null;
  return {
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    ...(result.usage.cachedInputTokens !== undefined
      ? { cache_read_input_tokens: result.usage.cachedInputTokens }
      : {}),
  };
}

function messageObject(
  identity: ReplyIdentity,
  result: ProviderResult,
  content: Block[],
  done: boolean,
) {
  const usage = usageOf(result);
  return {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content,
    stop_reason: done ? stopReason(result) : null,
    stop_sequence: null,
    ...(usage ? { usage: done ? usage : { ...usage, output_tokens: 0 } } : {}),
  };
}

/** The non-streaming reply body. */
export function messagesBody(
  identity: ReplyIdentity,
  result: ProviderResult,
): Record<string, unknown> {
  return messageObject(identity, result, blocksOf(result), true);
}

/** The streamed reply as SSE events. */
export function messagesEvents(identity: ReplyIdentity, result: ProviderResult): string[] {
  const events: Block[] = [
    { type: 'message_start', message: messageObject(identity, result, [], false) },
  ];
  blocksOf(result).forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else if (block.type === 'thinking') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: block.thinking },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: json },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(result), stop_sequence: null },
    usage: { output_tokens: result.usage?.outputTokens ?? 0 },
  });
  events.push({ type: 'message_stop' });
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}
