/**
 * An Anthropic Messages request body (`POST /v1/messages`) → the request apb serve forwards. Thinking blocks a
 * client replays are skipped: apb serve puts the vendor's signed reasoning back itself (`reasoning-memory.ts`).
 */
import { z } from 'zod';
import type { ChatMessage, ModelToolCall, ToolResult } from '../providers/provider.js';
import type { PromptPart } from '../settings/prompt.js';
import { BadRequestError, type ClientOptions, type NameMap } from './client-options.js';
import { zodProblem, type ServeRequest } from './openai-request.js';

const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const Block = z.object({ type: z.string() }).passthrough();
const Content = z.union([z.string(), z.array(Block)]);
const TextBlock = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const ToolUse = z
  .object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string().min(1),
    input: z.unknown(),
  })
  .passthrough();
const ToolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: opt(Content),
    is_error: opt(z.boolean()),
  })
  .passthrough();

/** Every Messages field apb serve knows; any other is refused (400 naming it). */
const MessagesRequestSchema = z
  .object({
    model: z.string(),
    max_tokens: z.number().int().positive(),
    messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: Content })).min(1),
    system: opt(Content),
    tools: opt(
      z.array(
        z
          .object({
            name: z.string().min(1),
            description: opt(z.string()),
            input_schema: z.record(z.string(), z.unknown()),
            strict: opt(z.boolean()),
          })
          .passthrough(),
      ),
    ),
    tool_choice: opt(
      z.object({
        type: z.enum(['auto', 'any', 'tool', 'none']),
        name: z.string().optional(),
        disable_parallel_tool_use: z.boolean().optional(),
      }),
    ),
    temperature: opt(z.number().min(0).max(1)),
    top_p: opt(z.number().min(0).max(1)),
    stop_sequences: opt(z.array(z.string())),
    stream: opt(z.boolean()),
    thinking: opt(
      z.union([
        z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(0) }),
        z.object({ type: z.literal('disabled') }),
      ]),
    ),
    metadata: opt(z.object({ user_id: opt(z.string()) })),
    service_tier: opt(z.string()),
  })
  .strict();

type MessagesBody = z.infer<typeof MessagesRequestSchema>;

/** How this API names the options, for error messages. */
export const MESSAGES_NAMES: NameMap = {
  stop: 'stop_sequences',
  thinking_budget: 'thinking.budget_tokens',
  parallel_tool_calls: 'tool_choice.disable_parallel_tool_use',
  user: 'metadata.user_id',
};

const blocksOf = (content: z.infer<typeof Content>) =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

function textOf(content: z.infer<typeof Content> | null | undefined, where: string): string {
  if (!content) return '';
  return blocksOf(content)
    .map((block, index) => {
      const text = TextBlock.safeParse(block);
      if (!text.success)
        throw new BadRequestError(
          `${where}[${index}]: only text blocks are supported here (got "${block.type}")`,
        );
      return text.data.text;
    })
    .join('');
}

/** One Anthropic message → chat messages (a user turn may carry tool results and text: results come first). */
function toChat(
  message: MessagesBody['messages'][number],
  where: string,
  names: Map<string, string>,
) {
  const out: ChatMessage[] = [];
  const parts: PromptPart[] = [];
  const calls: ModelToolCall[] = [];
  const results: ToolResult[] = [];
  blocksOf(message.content).forEach((block, index) => {
    const at = `${where}.content[${index}]`;
    if (block.type === 'text') parts.push({ type: 'text', text: TextBlock.parse(block).text });
    else if (block.type === 'tool_use' && message.role === 'assistant') {
      const use = ToolUse.parse(block);
      const input =
        use.input && typeof use.input === 'object' && !Array.isArray(use.input) ? use.input : {};
      calls.push({ id: use.id, name: use.name, arguments: input as Record<string, unknown> });
      names.set(use.id, use.name);
    } else if (block.type === 'tool_result' && message.role === 'user') {
      const result = ToolResultBlock.safeParse(block);
      if (!result.success) throw new BadRequestError(`${at}: ${zodProblem(result.error)}`);
      results.push({
        callId: result.data.tool_use_id,
        name: names.get(result.data.tool_use_id) ?? 'unknown',
        content: textOf(result.data.content, `${at}.content`),
        isError: result.data.is_error === true,
      });
    } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking')
      throw new BadRequestError(`${at}: "${block.type}" blocks are not supported by apb serve`);
  });
  if (results.length > 0) out.push({ role: 'tool', results });
  if (calls.length > 0) out.push({ role: 'assistant', parts, toolCalls: calls });
  else if (parts.length > 0 || results.length === 0)
    out.push({
      role: message.role,
      parts: parts.length > 0 ? parts : [{ type: 'text', text: '' }],
    });
  return out;
}

function optionsOf(body: MessagesBody): ClientOptions {
  const disable = body.tool_choice?.disable_parallel_tool_use;
  const all: ClientOptions = {
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    max_tokens: body.max_tokens,
    stop: body.stop_sequences ?? undefined,
    thinking_budget: body.thinking?.type === 'enabled' ? body.thinking.budget_tokens : undefined,
    parallel_tool_calls: disable === undefined ? undefined : !disable,
    user: body.metadata?.user_id ?? undefined,
    service_tier: body.service_tier ?? undefined,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** Reads a Messages body; throws `BadRequestError` naming the first bad or unknown field. */
export function readMessagesRequest(body: unknown): ServeRequest {
  const parsed = MessagesRequestSchema.safeParse(body);
  if (!parsed.success) throw new BadRequestError(zodProblem(parsed.error));
  const request = parsed.data;
  const names = new Map<string, string>();
  const system = textOf(request.system, 'system');
  const messages: ChatMessage[] = [
    ...(system !== ''
      ? [{ role: 'system' as const, parts: [{ type: 'text' as const, text: system }] }]
      : []),
    ...request.messages.flatMap((message, index) => toChat(message, `messages[${index}]`, names)),
  ];
  const choice = request.tool_choice;
  return {
    model: request.model,
    messages,
    tools: (request.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.input_schema,
      ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
    })),
    toolChoice: !choice
      ? undefined
      : choice.type === 'any'
        ? 'required'
        : choice.type === 'tool'
          ? { tool: choice.name ?? '' }
          : choice.type,
    options: optionsOf(request),
    stream: request.stream === true,
    includeUsage: true,
  };
}
