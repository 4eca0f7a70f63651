/**
 * An OpenAI chat-completions request body (untrusted) → the provider contract's request parts: chat messages with
 * tool calls and results, tools, tool choice and sampling. zod checks the shape; problems name the field.
 */
import { z } from 'zod';
import {
  readToolArguments,
  type ChatMessage,
  type ModelToolCall,
  type ResponseFormat,
  type ToolChoice,
  type ToolDefinition,
  type ToolResult,
} from '../providers/provider.js';
import type { PromptPart } from '../settings/prompt.js';
import { BadRequestError, reasoningEffortOf, type ClientOptions } from './client-options.js';

export { BadRequestError } from './client-options.js';

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
    description: z.string().nullable().optional(),
    parameters: z.record(z.string(), z.unknown()).nullable().optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
const WireToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);
const WireFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);
const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** Every chat-completions field apb serve knows; any other is refused (400 naming it), never dropped. */
export const ChatCompletionRequestSchema = z
  .object({
    model: opt(z.string()),
    messages: z.array(WireMessage).min(1),
    tools: opt(z.array(WireTool)),
    tool_choice: opt(WireToolChoice),
    temperature: opt(z.number().min(0).max(2)),
    top_p: opt(z.number().min(0).max(1)),
    max_tokens: opt(z.number().int().positive()),
    max_completion_tokens: opt(z.number().int().positive()),
    seed: opt(z.number().int()),
    n: opt(z.literal(1)),
    stream: opt(z.boolean()),
    stream_options: opt(z.object({ include_usage: z.boolean().optional() }).passthrough()),
    stop: opt(z.union([z.string(), z.array(z.string()).max(4)])),
    presence_penalty: opt(z.number().min(-2).max(2)),
    frequency_penalty: opt(z.number().min(-2).max(2)),
    response_format: opt(WireFormat),
    reasoning_effort: opt(z.string()),
    parallel_tool_calls: opt(z.boolean()),
    logprobs: opt(z.boolean()),
    top_logprobs: opt(z.number().int().min(0).max(20)),
    logit_bias: opt(z.record(z.string(), z.number())),
    user: opt(z.string()),
    service_tier: opt(z.string()),
    store: opt(z.boolean()),
    metadata: opt(z.record(z.string(), z.string())),
    verbosity: opt(z.string()),
    prompt_cache_key: opt(z.string()),
    safety_identifier: opt(z.string()),
  })
  .strict();

/** A request as apb serve forwards it, whatever API the client spoke. */
export interface ServeRequest {
  model: string | null;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice | undefined;
  /** The client's options, checked against the upstream when forwarded. */
  options: ClientOptions;
  stream: boolean;
  includeUsage: boolean;
}

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

function toolCallOf(call: z.infer<typeof WireToolCall>, jsonDepth?: number): ModelToolCall {
  const args = readToolArguments(call.function.arguments, jsonDepth);
  return { id: call.id, name: call.function.name, ...args };
}

/** Wire messages → chat messages: consecutive `tool` messages become one results message, named from the calls. */
function toChatMessages(messages: WireMessageValue[], jsonDepth?: number): ChatMessage[] {
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
      const toolCalls = message.tool_calls.map((call) => toolCallOf(call, jsonDepth));
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

/** The first problem of a zod parse as `field: message` (an unknown key named as such). */
export function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const field =
    issue?.path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('')
      .replace(/^\./, '') || '(body)';
  if (issue?.code === 'unrecognized_keys')
    return `${issue.keys.map((key) => (field === '(body)' ? key : `${field}.${key}`)).join(', ')}: not supported by apb serve`;
  return `${field}: ${issue?.message ?? 'invalid request'}`;
}

const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** The wire reply format → ours (`text` is no format at all). */
function formatOf(
  format: z.infer<typeof WireFormat> | null | undefined,
): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  const { name, description, schema, strict } = format.json_schema;
  return {
    type: 'json',
    name,
    ...(description !== undefined ? { description } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(strict !== undefined && strict !== null ? { strict } : {}),
  };
}

/** The client options of a chat-completions body, only those it set. */
function optionsOf(request: z.infer<typeof ChatCompletionRequestSchema>): ClientOptions {
  const stop = given(request.stop);
  const all: ClientOptions = {
    temperature: given(request.temperature),
    top_p: given(request.top_p),
    max_tokens: given(request.max_completion_tokens) ?? given(request.max_tokens),
    stop: typeof stop === 'string' ? [stop] : stop,
    seed: given(request.seed),
    presence_penalty: given(request.presence_penalty),
    frequency_penalty: given(request.frequency_penalty),
    response_format: formatOf(request.response_format),
    reasoning_effort: reasoningEffortOf(request.reasoning_effort, 'reasoning_effort'),
    parallel_tool_calls: given(request.parallel_tool_calls),
    logprobs: given(request.logprobs),
    top_logprobs: given(request.top_logprobs),
    logit_bias: given(request.logit_bias),
    user: given(request.user),
    service_tier: given(request.service_tier),
    store: given(request.store),
    metadata: given(request.metadata),
    verbosity: given(request.verbosity),
    prompt_cache_key: given(request.prompt_cache_key),
    safety_identifier: given(request.safety_identifier),
  };
  return Object.fromEntries(
    Object.entries(all).filter(([, value]) => value !== undefined),
  ) as ClientOptions;
}

/** Reads a parsed JSON body; throws `BadRequestError` naming the first bad or unknown field. */
/** A chat completions body as a request; tool-call arguments nested past `jsonDepth` are not read. */
export function readChatRequest(body: unknown, jsonDepth?: number): ServeRequest {
  const parsed = ChatCompletionRequestSchema.safeParse(body);
  if (!parsed.success) throw new BadRequestError(zodProblem(parsed.error));
  const request = parsed.data;
  return {
    model: request.model ?? null,
    messages: toChatMessages(request.messages, jsonDepth),
    tools: (request.tools ?? []).map((tool) => ({
      name: tool.function.name,
      description: tool.function.description ?? '',
      parameters: tool.function.parameters ?? { type: 'object', properties: {} },
      ...(typeof tool.function.strict === 'boolean' ? { strict: tool.function.strict } : {}),
    })),
    toolChoice: toolChoiceOf(given(request.tool_choice)),
    options: optionsOf(request),
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true,
  };
}
