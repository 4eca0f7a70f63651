/**
 * An OpenAI Responses API request body (`POST /v1/responses`, the OpenAI Agents SDK's default) → the request
 * apb serve forwards. Stateless only: the client sends the whole input each turn (`previous_response_id` and
 * stored conversations are refused, naming the field). Reasoning items a client replays are skipped: apb serve
 * puts the vendor's own reasoning back itself (`reasoning-memory.ts`).
 */
import { z } from 'zod';
import { readToolArguments, type ChatMessage, type ToolResult } from '../providers/provider.js';
import {
  BadRequestError,
  reasoningEffortOf,
  type ClientOptions,
  type NameMap,
} from './client-options.js';
import { zodProblem, type ServeRequest } from './openai-request.js';

const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const TextContent = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
]);
const Item = z.union([
  z
    .object({
      type: z.literal('message').optional(),
      role: z.enum(['user', 'system', 'developer', 'assistant']),
      content: TextContent,
    })
    .passthrough(),
  z
    .object({
      type: z.literal('function_call'),
      call_id: z.string(),
      name: z.string().min(1),
      arguments: z.string(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal('function_call_output'),
      call_id: z.string(),
      output: TextContent,
    })
    .passthrough(),
  z.object({ type: z.literal('reasoning') }).passthrough(),
]);
const Tool = z
  .object({
    type: z.literal('function'),
    name: z.string().min(1),
    description: opt(z.string()),
    parameters: opt(z.record(z.string(), z.unknown())),
    strict: opt(z.boolean()),
  })
  .passthrough();
const Format = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    description: opt(z.string()),
    schema: z.record(z.string(), z.unknown()),
    strict: opt(z.boolean()),
  }),
]);

/** Every Responses field apb serve knows; any other is refused (400 naming it). */
const ResponsesRequestSchema = z
  .object({
    model: opt(z.string()),
    input: z.union([z.string(), z.array(Item).min(1)]),
    instructions: opt(z.string()),
    tools: opt(z.array(Tool)),
    tool_choice: opt(
      z.union([
        z.enum(['auto', 'none', 'required']),
        z.object({ type: z.literal('function'), name: z.string() }),
      ]),
    ),
    temperature: opt(z.number().min(0).max(2)),
    top_p: opt(z.number().min(0).max(1)),
    max_output_tokens: opt(z.number().int().positive()),
    stream: opt(z.boolean()),
    text: opt(z.object({ format: opt(Format), verbosity: opt(z.string()) })),
    reasoning: opt(z.object({ effort: opt(z.string()), summary: opt(z.string()) }).passthrough()),
    parallel_tool_calls: opt(z.boolean()),
    store: opt(z.boolean()),
    metadata: opt(z.record(z.string(), z.string())),
    user: opt(z.string()),
    include: opt(z.array(z.string())),
    truncation: opt(z.enum(['disabled', 'auto'])),
    service_tier: opt(z.string()),
    top_logprobs: opt(z.number().int().min(0).max(20)),
    prompt_cache_key: opt(z.string()),
    safety_identifier: opt(z.string()),
    previous_response_id: opt(z.string()),
    conversation: opt(z.unknown()),
  })
  .strict();

type ResponsesBody = z.infer<typeof ResponsesRequestSchema>;

/** How this API names the options, for error messages. */
export const RESPONSES_NAMES: NameMap = {
  max_tokens: 'max_output_tokens',
  response_format: 'text.format',
  reasoning_effort: 'reasoning.effort',
  verbosity: 'text.verbosity',
  logprobs: 'top_logprobs',
};

const textOf = (content: z.infer<typeof TextContent>): string =>
  typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');

type InputItem = z.infer<typeof Item>;
type MessageItem = Extract<InputItem, { role: string }>;
type CallItem = Extract<InputItem, { type: 'function_call' }>;
type OutputItem = Extract<InputItem, { type: 'function_call_output' }>;

/** Input items → chat messages: consecutive calls become one tool-call turn, consecutive outputs one results message. */
function messagesOf(body: ResponsesBody, jsonDepth: number | undefined): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (body.instructions)
    out.push({ role: 'system', parts: [{ type: 'text', text: body.instructions }] });
  const items: InputItem[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const names = new Map<string, string>();
  items.forEach((item, index) => {
    const last = out.at(-1);
    const type = (item as { type?: string }).type ?? 'message';
    if (type === 'message') {
      const message = item as MessageItem;
      for (const part of typeof message.content === 'string' ? [] : message.content)
        if (!/text$/.test(part.type))
          throw new BadRequestError(
            `input[${index}].content: only text parts are supported (got "${part.type}")`,
          );
      const role = message.role === 'developer' ? 'system' : message.role;
      out.push({ role, parts: [{ type: 'text', text: textOf(message.content) }] });
    } else if (type === 'function_call') {
      const wire = item as CallItem;
      const args = readToolArguments(wire.arguments, jsonDepth);
      const call = { id: wire.call_id, name: wire.name, ...args };
      names.set(call.id, call.name);
      if (last?.role === 'assistant' && 'toolCalls' in last) last.toolCalls.push(call);
      else out.push({ role: 'assistant', parts: [], toolCalls: [call] });
    } else if (type === 'function_call_output') {
      const wire = item as OutputItem;
      const result: ToolResult = {
        callId: wire.call_id,
        name: names.get(wire.call_id) ?? 'unknown',
        content: textOf(wire.output),
        isError: false,
      };
      if (last?.role === 'tool') last.results.push(result);
      else out.push({ role: 'tool', results: [result] });
    }
  });
  return out;
}

function optionsOf(body: ResponsesBody): ClientOptions {
  const format = body.text?.format;
  const all: ClientOptions = {
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    max_tokens: body.max_output_tokens ?? undefined,
    response_format:
      !format || format.type === 'text'
        ? undefined
        : format.type === 'json_object'
          ? { type: 'json' }
          : {
              type: 'json',
              name: format.name,
              schema: format.schema,
              ...(format.description ? { description: format.description } : {}),
              ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
            },
    reasoning_effort: reasoningEffortOf(body.reasoning?.effort, 'reasoning.effort'),
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    logprobs: body.top_logprobs ? true : undefined,
    top_logprobs: body.top_logprobs ?? undefined,
    user: body.user ?? undefined,
    service_tier: body.service_tier ?? undefined,
    metadata: body.metadata ?? undefined,
    verbosity: body.text?.verbosity ?? undefined,
    prompt_cache_key: body.prompt_cache_key ?? undefined,
    safety_identifier: body.safety_identifier ?? undefined,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** Reads a Responses body; throws `BadRequestError` naming the first bad or unknown field. */
/** A Responses API body as a request; tool-call arguments nested past `jsonDepth` are not read. */
export function readResponsesRequest(body: unknown, jsonDepth?: number): ServeRequest {
  const parsed = ResponsesRequestSchema.safeParse(body);
  if (!parsed.success) throw new BadRequestError(zodProblem(parsed.error));
  const request = parsed.data;
  for (const field of ['previous_response_id', 'conversation'] as const)
    if (request[field] !== undefined && request[field] !== null)
      throw new BadRequestError(`${field}: apb serve is stateless; send the whole input each turn`);
  const choice = request.tool_choice ?? undefined;
  return {
    model: request.model ?? null,
    messages: messagesOf(request, jsonDepth),
    tools: (request.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.parameters ?? { type: 'object', properties: {} },
      ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
    })),
    toolChoice: typeof choice === 'object' ? { tool: choice.name } : choice,
    options: optionsOf(request),
    stream: request.stream === true,
    includeUsage: true,
  };
}
