/**
 * `import --from trajectories`: agent trajectories as OpenAI-style chat messages with tool calls
 * (one JSON object per line: `messages`, `tools`, optional `id`, `files` and provenance) → source
 * records. The input format is documented in docs/construction.md ("Trajectory input").
 */
import { z } from 'zod';
import { normalizeTool, parseArguments } from '../dataset/normalize.js';
import { FileEntrySchema, ToolDefinitionSchema } from '../dataset/record-schema.js';
import type { InputIssue } from '../errors.js';
import type { SourceCall, SourceMessage, SourceRecord } from './source-record.js';

const textPart = z.object({ type: z.string().optional(), text: z.string() }).loose();
const content = z.union([z.string(), z.array(z.union([z.string(), textPart]))]).nullish();

const chatCall = z
  .object({
    id: z.string().optional(),
    type: z.string().optional(),
    function: z.object({ name: z.string().min(1), arguments: z.unknown().optional() }).loose(),
  })
  .loose();

const chatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content }).loose(),
  z.object({ role: z.literal('user'), content }).loose(),
  z
    .object({ role: z.literal('assistant'), content, tool_calls: z.array(chatCall).nullish() })
    .loose(),
  z
    .object({
      role: z.literal('tool'),
      content,
      tool_call_id: z.string().optional(),
      name: z.string().optional(),
      error: z.boolean().optional(),
    })
    .loose(),
]);

/** One line of a trajectories file. */
export const TrajectoryLineSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).optional(),
    messages: z.array(chatMessage).min(1),
    tools: z.array(ToolDefinitionSchema),
    files: z.array(FileEntrySchema).optional(),
    source: z.string().nullish(),
    source_subset: z.string().nullish(),
    task_family: z.string().nullish(),
    task_category: z.string().nullish(),
  })
  .loose();
type ChatMessage = z.infer<typeof chatMessage>;

function textOf(value: z.infer<typeof content>): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return value.map((part) => (typeof part === 'string' ? part : part.text)).join('\n');
}

/** Where a line came from, for issues and for ids of lines without one. */
export interface TrajectoryOrigin {
  file: string;
  line: number;
  /** Prefix of generated ids (the file's base name). */
  idPrefix: string;
  /** The JSON cap tool-call arguments are read under; default `DEFAULT_LIMITS`'. */
  jsonDepth?: number;
}

/** A line's source record, or its problems. */
export type ImportedLine = { ok: true; record: SourceRecord } | { ok: false; issues: InputIssue[] };

/** Converts the messages after the query; tool returns without an id answer the oldest unanswered call. */
function convertMessages(
  messages: ChatMessage[],
  recordId: string,
  jsonDepth: number | undefined,
): SourceMessage[] {
  const out: SourceMessage[] = [];
  const pending: SourceCall[] = [];
  let step = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const calls = (message.tool_calls ?? []).map((call, index): SourceCall => ({
        id: call.id ?? `${recordId}-call-${step}-${index}`,
        name: call.function.name,
        arguments: parseArguments(call.function.arguments, jsonDepth),
      }));
      if (calls.length > 0) step += 1;
      pending.push(...calls);
      out.push({ role: 'assistant', content: textOf(message.content), tool_calls: calls });
    } else if (message.role === 'tool') {
      const index = message.tool_call_id
        ? pending.findIndex((call) => call.id === message.tool_call_id)
        : 0;
      const answered = index >= 0 ? pending.splice(index, 1)[0] : undefined;
      const callId = message.tool_call_id ?? answered?.id ?? `${recordId}-unmatched-${out.length}`;
      out.push({
        role: 'tool',
        tool_call_id: callId,
        name: message.name ?? answered?.name ?? 'unknown',
        content: textOf(message.content),
        error: message.error ?? false,
      });
    } else {
      out.push({ role: 'user', content: textOf(message.content) });
    }
  }
  return out;
}

/** One parsed JSON line → a source record, or its problems (field paths relative to the line). */
export function importTrajectoryLine(value: unknown, origin: TrajectoryOrigin): ImportedLine {
  const issue = (field: string, message: string): ImportedLine => ({
    ok: false,
    issues: [{ file: origin.file, line: origin.line, field, message }],
  });
  const parsed = TrajectoryLineSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((item) => ({
        file: origin.file,
        line: origin.line,
        field: item.path.map(String).join('.') || '(line)',
        message: item.message,
      })),
    };
  }
  const line = parsed.data;
  const id = line.id === undefined ? `${origin.idPrefix}-${origin.line}` : String(line.id);
  let start = 0;
  const system: string[] = [];
  while (start < line.messages.length && line.messages[start]!.role === 'system')
    system.push(textOf(line.messages[start++]!.content));
  const first = line.messages[start];
  if (!first || first.role !== 'user' || !textOf(first.content).trim())
    return issue(
      `messages[${start}]`,
      'expected the user query (a user message with text) after the system messages',
    );
  const messages = convertMessages(line.messages.slice(start + 1), id, origin.jsonDepth);
  const hasReturns = messages.some((message) => message.role === 'tool');
  return {
    ok: true,
    record: {
      id,
      source: line.source ?? null,
      source_subset: line.source_subset ?? null,
      task_family: line.task_family ?? null,
      task_category: line.task_category ?? null,
      query: textOf(first.content),
      system_prompt: system.length > 0 ? system.join('\n\n') : null,
      tools: line.tools.map(normalizeTool),
      messages,
      files: line.files ?? [],
      tool_returns: hasReturns ? 'recorded' : 'absent',
    },
  };
}
