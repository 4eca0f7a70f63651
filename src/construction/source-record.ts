/**
 * Source records: what `import` produces and every later step reads. One record is one task with
 * its executed trajectory: the query, the system prompt, the tools, and the messages after the
 * query (assistant steps with their tool calls, tool returns, later user turns). The format is
 * documented in docs/construction.md ("Source records").
 */
import { z } from 'zod';
import { FileEntrySchema } from '../dataset/record-schema.js';

const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  {
    error: 'expected a JSON object',
  },
);

/** A tool as a source record lists it (the case model's `Tool`, as JSON). */
export const SourceToolSchema = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    parameters: jsonObject.optional(),
    cost: z.number().nonnegative().optional(),
    example: z.string().optional(),
  })
  .strict();
export type SourceTool = z.infer<typeof SourceToolSchema>;

/** One tool call of an assistant step. */
export const SourceCallSchema = z
  .object({ id: z.string().min(1), name: z.string().min(1), arguments: z.unknown() })
  .strict();
export type SourceCall = z.infer<typeof SourceCallSchema>;

/** One message of a source trajectory, after the query. */
export const SourceMessageSchema = z.discriminatedUnion('role', [
  z
    .object({
      role: z.literal('assistant'),
      content: z.string(),
      tool_calls: z.array(SourceCallSchema),
    })
    .strict(),
  z
    .object({
      role: z.literal('tool'),
      tool_call_id: z.string().min(1),
      name: z.string().min(1),
      /** Null when the call was never executed (see `tool_returns`). */
      content: z.string().nullable(),
      /** True when the environment answered with an error. */
      error: z.boolean(),
    })
    .strict(),
  z.object({ role: z.literal('user'), content: z.string() }).strict(),
]);
export type SourceMessage = z.infer<typeof SourceMessageSchema>;

/** Where the tool returns of a record come from. */
export const TOOL_RETURNS = ['executed', 'recorded', 'absent', 'simulated'] as const;

/** A source record line of `sources.jsonl`. */
export const SourceRecordSchema = z
  .object({
    id: z.string().min(1),
    source: z.string().nullable(),
    source_subset: z.string().nullable(),
    task_family: z.string().nullable(),
    task_category: z.string().nullable(),
    query: z.string().min(1),
    system_prompt: z.string().nullable(),
    tools: z.array(SourceToolSchema),
    messages: z.array(SourceMessageSchema),
    files: z.array(FileEntrySchema),
    /**
     * `executed`: run in a real environment; `recorded`: as the input trajectory logged them;
     * `absent`: not executed; `simulated`: `augment` (B.1) extended the trajectory with returns a
     * model wrote (its meta line says from which return on, and what the earlier ones were).
     */
    tool_returns: z.enum(TOOL_RETURNS),
  })
  .strict();
export type SourceRecord = z.infer<typeof SourceRecordSchema>;

/** One assistant step of a trajectory: its calls and, for each, its return (null when missing). */
export interface TrajectoryStep {
  /** 0-based position among the record's steps. */
  index: number;
  /** Position of the assistant message in `messages`. */
  messageIndex: number;
  content: string;
  calls: SourceCall[];
  returns: Array<Extract<SourceMessage, { role: 'tool' }> | null>;
}

/** The assistant messages that call at least one tool, each with the returns of its calls. */
export function stepsOf(record: SourceRecord): TrajectoryStep[] {
  const returns = new Map<string, Extract<SourceMessage, { role: 'tool' }>>();
  for (const message of record.messages)
    if (message.role === 'tool') returns.set(message.tool_call_id, message);
  const steps: TrajectoryStep[] = [];
  record.messages.forEach((message, messageIndex) => {
    if (message.role !== 'assistant' || message.tool_calls.length === 0) return;
    steps.push({
      index: steps.length,
      messageIndex,
      content: message.content,
      calls: message.tool_calls,
      returns: message.tool_calls.map((call) => returns.get(call.id) ?? null),
    });
  });
  return steps;
}

/** True when every call of the step was answered without an error (an unexecuted call counts as answered). */
export function stepSucceeded(step: TrajectoryStep): boolean {
  return step.returns.every((result) => result === null || !result.error);
}
