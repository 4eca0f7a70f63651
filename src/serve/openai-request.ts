/**
 * An OpenAI chat-completions request body (untrusted) → the provider contract's request parts: chat messages with
 * tool calls and results, tools, tool choice and sampling. zod checks the shape; problems name the field.
 */
import { z } from 'zod';
import {
  readToolArguments,
  type ChatMessage,
  type ModelToolCall,
  type SamplingParams,
  type ToolChoice,
  type ToolDefinition,
  type ToolResult,
} from '../providers/provider.js';
import type { PromptPart } from '../settings/prompt.js';

const TextPart = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const Content = z
  .union([z.string(), z.array(z.object({ type: z.string() }).passthrough()), z.null()])
  .optional();
const WireToolCall = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string().default('{}') }),
});
const WireMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: Content }).passthrough(),
  z.object({ role: z.literal('developer'), content: Content }).passthrough(),
  z.object({ role: z.literal('user'), content: Content }).passthrough(),
  z
    .object({
      role: z.literal('assistant'),
      content: Content,
      tool_calls: z.array(WireToolCall).optional(),
    })
    .passthrough(),
  z.object({ role: z.literal('tool'), content: Content, tool_call_id: z.string() }).passthrough(),
]);
const WireTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});
const WireToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);

/** The request fields apb serve reads; others are ignored (see docs/execution.md). */
export const ChatCompletionRequestSchema = z
  .object({
    model: z.string().optional(),
    messages: z.array(WireMessage).min(1),
    tools: z.array(WireTool).optional(),
    tool_choice: WireToolChoice.optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    max_tokens: z.number().int().positive().nullable().optional(),
    max_completion_tokens: z.number().int().positive().nullable().optional(),
    seed: z.number().int().nullable().optional(),
    n: z.literal(1).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  })
  .passthrough();

/** A chat-completions request as apb serve forwards it. */
export interface ServeRequest {
  model: string | null;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice | undefined;
  sampling: SamplingParams;
  stream: boolean;
  includeUsage: boolean;
}

/** A request body apb serve cannot take: the message names the field. */
export class BadRequestError extends Error {}

type WireMessageValue = z.infer<typeof WireMessage>;

/** The text of a wire content value; image and audio parts are refused (apb serve forwards text conversations). */
function textOf(content: WireMessageValue['content'], where: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      const text = TextPart.safeParse(part);
      if (!text.success)
        throw new BadRequestError(
          `${where}.content[${index}]: only text parts are supported (got "${part.type}")`,
        );
      return text.data.text;
    })
    .join('');
}

function toolCallOf(call: z.infer<typeof WireToolCall>): ModelToolCall {
  return { id: call.id, name: call.function.name, ...readToolArguments(call.function.arguments) };
}

/** Wire messages → chat messages: consecutive `tool` messages become one results message, named from the calls. */
function toChatMessages(messages: WireMessageValue[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const callNames = new Map<string, string>();
  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const text = textOf(message.content, where);
    const parts: PromptPart[] = text === '' ? [] : [{ type: 'text', text }];
    if (message.role === 'tool') {
      const result: ToolResult = {
        callId: message.tool_call_id,
        name: callNames.get(message.tool_call_id) ?? 'unknown',
        content: text,
        isError: false,
      };
      const last = out.at(-1);
      if (last?.role === 'tool') last.results.push(result);
      else out.push({ role: 'tool', results: [result] });
      return;
    }
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const toolCalls = message.tool_calls.map(toolCallOf);
      for (const call of toolCalls) callNames.set(call.id, call.name);
      out.push({ role: 'assistant', parts, toolCalls });
      return;
    }
    const role = message.role === 'developer' ? 'system' : message.role;
    out.push({ role, parts: parts.length > 0 ? parts : [{ type: 'text', text: '' }] });
  });
  return out;
}

function toolChoiceOf(choice: z.infer<typeof WireToolChoice> | undefined): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  return typeof choice === 'string' ? choice : { tool: choice.function.name };
}

/** Reads a parsed JSON body; throws `BadRequestError` naming the first bad field. */
export function readChatRequest(body: unknown): ServeRequest {
  const parsed = ChatCompletionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue?.path
        .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
        .join('')
        .replace(/^\./, '') || '(body)';
    throw new BadRequestError(`${field}: ${issue?.message ?? 'invalid request'}`);
  }
  const request = parsed.data;
  const maxOutputTokens = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const sampling: SamplingParams = {
    ...(request.temperature !== undefined && request.temperature !== null
      ? { temperature: request.temperature }
      : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(request.seed !== undefined && request.seed !== null ? { seed: request.seed } : {}),
  };
  return {
    model: request.model ?? null,
    messages: toChatMessages(request.messages),
    tools: (request.tools ?? []).map((tool) => ({
      name: tool.function.name,
      description: tool.function.description ?? '',
      parameters: tool.function.parameters ?? { type: 'object', properties: {} },
    })),
    toolChoice: toolChoiceOf(request.tool_choice),
    sampling,
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true,
  };
}
