/**
 * One line of `executions.jsonl` (CONTRACT.md, `apb exec`): one execution of one task, in one mode,
 * one trial. The zod schema reads the file back (reports, resume); unknown members are kept, so
 * later fields (plans, usage) extend a line without breaking older readers.
 */
import { z } from 'zod';
import { TERMINATIONS, type ExecMessage, type ExecTask, type Termination } from './environment.js';
import type { RewardResult } from './reward.js';

const Bit = z.union([z.literal(0), z.literal(1)]).nullable();

const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });

/** A recorded message (the `ExecMessage` shape). */
export const RecordedMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(ToolCall).optional(),
  }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string(),
    name: z.string(),
    content: z.string(),
    error: z.boolean(),
  }),
]);

/** `reward_info`: each component 0/1, null where not in the basis or not evaluated. */
export const RewardInfoSchema = z.object({
  db: Bit,
  communicate: Bit,
  action: Bit,
  nl_assertion: Bit,
  reward_if_nl_met: z.number().optional(),
});

/** The reward's explanation (`RewardDetails`): database differences and each check. */
export const RewardDetailsSchema = z.object({
  note: z.string().nullable(),
  db_differences: z.array(
    z.object({
      collection: z.string(),
      key: z.string(),
      expected: z.unknown(),
      actual: z.unknown(),
    }),
  ),
  communicate_checks: z.array(z.object({ info: z.string(), met: z.boolean() })),
  action_checks: z.array(z.object({ action_id: z.string(), name: z.string(), met: z.boolean() })),
  nl_status: z.enum(['not_needed', 'judged', 'not_evaluated', 'judge_error']),
  nl_checks: z.array(
    z.object({ assertion: z.string(), met: z.boolean(), justification: z.string() }),
  ),
  nl_error: z.string().nullable(),
});

/** One executions.jsonl line. `mode` is `replay` for scripted agents; `plan` is set by plan-first and refine. */
export const ExecutionRecordSchema = z.looseObject({
  task_id: z.string(),
  env: z.string(),
  mode: z.string(),
  /** The tested model's spec, or the replay agent (`replay:gold`, `replay:FILE`). */
  model: z.string(),
  trial: z.number().int().nonnegative(),
  reward: z.number().min(0).max(1).nullable(),
  reward_info: RewardInfoSchema,
  termination: z.enum(TERMINATIONS),
  messages: z.array(RecordedMessage),
  reward_details: RewardDetailsSchema,
  /** The plan put in front of the agent and its APB judgement before and after refinement (plan-first / refine). */
  plan: z.record(z.string(), z.unknown()).optional(),
  /** apb's own bookkeeping: NL judge, its usage, the apb version. */
  apb: z.looseObject({ nl_judge: z.string().nullable() }),
});

/** A parsed executions.jsonl line. */
export type ExecutionRecord = z.infer<typeof ExecutionRecordSchema>;

/** Builds the executions.jsonl line of one finished execution. */
export function executionRecord(fields: {
  env: string;
  task: ExecTask;
  mode: string;
  model: string;
  trial: number;
  messages: ExecMessage[];
  termination: Termination;
  reward: RewardResult;
  nlJudge: string | null;
  plan?: Record<string, unknown>;
}): ExecutionRecord {
  return {
    task_id: fields.task.id,
    env: fields.env,
    mode: fields.mode,
    model: fields.model,
    trial: fields.trial,
    reward: fields.reward.reward,
    reward_info: fields.reward.reward_info,
    termination: fields.termination,
    messages: fields.messages,
    reward_details: fields.reward.details,
    ...(fields.plan ? { plan: fields.plan } : {}),
    apb: { nl_judge: fields.nlJudge },
  };
}
