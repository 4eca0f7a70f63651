/**
 * The lines of an exec run directory (CONTRACT.md, `apb exec`): `executions.jsonl`, one execution of
 * one (task, mode, trial), and `plans.jsonl`, one opening of a (task, trial) shared by its modes.
 * Versioned by a top-level `schema_version`; a line without one is version 0 (the replay agent's
 * lines before the two agents shared one loop), read through `migrateExecutionLine`.
 */
import { z } from 'zod';
import { UsageSchema } from './common.js';
import { CritiqueRecordSchema, RefineStatusSchema, RevisionRecordSchema } from './refinement.js';
import { JudgementSchema } from './result-lines.js';

/** Version of the exec lines. */
export const EXEC_SCHEMA_VERSION = 1;

const Count = z.number().int().nonnegative();
const Bit = z.union([z.literal(0), z.literal(1)]).nullable();

/** Why a conversation ended: tau2's termination reasons, plus an infrastructure failure. */
export const TerminationSchema = z.enum([
  'agent_stop',
  'user_stop',
  'max_steps',
  'too_many_errors',
  'agent_error',
  'user_error',
  'timeout',
  'infrastructure_error',
  'max_messages',
]);

const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });

/** A recorded message (the `ExecMessage` shape of `execution/environment.ts`). */
export const RecordedMessageSchema = z.discriminatedUnion('role', [
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

/** One role's calls and tokens in a conversation. */
export const RoleUsageSchema = z.object({
  calls: Count,
  cached_calls: Count,
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
});

/** A plan made from an opening: `ok`, `parse_error` (the text is kept) or `error` (no reply). */
export const PlanRecordSchema = z.object({
  status: z.enum(['ok', 'parse_error', 'error']),
  text: z.string(),
  /** The plan as `settings/` read it (an `Attempt`). */
  parsed: z.looseObject({ kind: z.string() }).nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
  usage: UsageSchema.nullable(),
  cached: z.boolean(),
  prompt_version: z.string(),
});

/** A refined plan: the refinement's rounds and outcome beside the plan it produced. */
export const RefinedPlanRecordSchema = PlanRecordSchema.extend({
  refine_status: RefineStatusSchema.exclude(['no_initial_answer']),
  critic: z.string(),
  taxonomy: z.boolean(),
  rounds: z.array(
    z.object({
      round: z.number().int().positive(),
      critique: CritiqueRecordSchema,
      revision: RevisionRecordSchema.nullable(),
    }),
  ),
  critic_usage: UsageSchema.nullable(),
  reviser_usage: UsageSchema.nullable(),
});

/** An APB judgement of a plan. */
export const PlanJudgementSchema = z.object({
  status: z.enum(['ok', 'judge_error', 'not_judged']),
  judge: z.string(),
  judgement: JudgementSchema,
  usage: UsageSchema.nullable(),
  cached: z.boolean(),
  notes: z.array(z.string()),
});

const judged = <P extends z.ZodType>(plan: P) => z.object({ plan, judgement: PlanJudgementSchema });

/** A plan with its APB judgement. */
export const JudgedPlanSchema = judged(PlanRecordSchema);
/** A refined plan with its APB judgement. */
export const JudgedRefinedPlanSchema = judged(RefinedPlanRecordSchema);

/** One `plans.jsonl` line: a (task, trial)'s opening, the user's first message and the plans made from it. */
export const OpeningLineSchema = z.object({
  schema_version: z.literal(EXEC_SCHEMA_VERSION),
  task_id: z.string(),
  trial: Count,
  env: z.string(),
  model: z.string(),
  /** Absent in lines written before it was recorded. */
  user_model: z.string().optional(),
  /** The user simulator's first message; null when the call failed. */
  first_user_message: z.string().nullable(),
  first_user_usage: RoleUsageSchema,
  error: z.object({ role: z.literal('user'), kind: z.string(), message: z.string() }).optional(),
  draft: JudgedPlanSchema.nullable(),
  refined: JudgedRefinedPlanSchema.nullable(),
});

/** One `executions.jsonl` line: (task, mode, trial). `mode` is `replay` for scripted agents. */
export const ExecutionLineSchema = z.object({
  schema_version: z.literal(EXEC_SCHEMA_VERSION),
  task_id: z.string(),
  env: z.string(),
  mode: z.enum(['direct', 'plan-first', 'refine', 'replay']),
  /** The tested model's spec, or the replay agent (`replay:gold`, `replay:FILE`). */
  model: z.string(),
  /** The user simulator; `none` for a scripted agent that needs none. */
  user_model: z.string(),
  trial: Count,
  reward: z.number().min(0).max(1).nullable(),
  reward_info: RewardInfoSchema,
  termination: TerminationSchema,
  stop_signal: z.string().nullable(),
  steps: Count,
  tool_errors: Count,
  messages: z.array(RecordedMessageSchema),
  /** plan-first and refine: the plan the agent was given, and its judgement before and after refinement. */
  plan: z
    .object({
      shown: z.string().nullable(),
      before: JudgedPlanSchema,
      after: JudgedRefinedPlanSchema.optional(),
    })
    .optional(),
  usage: z.object({ agent: RoleUsageSchema, user: RoleUsageSchema }),
  error: z
    .object({ role: z.enum(['agent', 'user']), kind: z.string(), message: z.string() })
    .optional(),
  /** The reward's explanation (`db_differences`, each check, the NL judge's verdicts). */
  reward_details: z.record(z.string(), z.unknown()),
  /**
   * ToolSandbox lines only (optional, so version 1 is unchanged for tau2's): the trajectory
   * similarity (also the line's `reward`; null after an infrastructure error), each milestone's
   * similarity in milestone order, whether a minefield matched, and ToolSandbox's turn count.
   */
  similarity: z.number().min(0).max(1).nullable().optional(),
  milestone_similarities: z.array(z.number().min(0).max(1)).optional(),
  minefield_hit: z.boolean().optional(),
  turns: Count.optional(),
  apb: z.object({
    nl_judge: z.string().nullable(),
    /** Null for a scripted agent, which has no prompt. */
    agent_prompt_version: z.string().nullable(),
    user_prompt_version: z.string().nullable(),
    planner_prompt_version: z.string().nullable(),
    /** Null in version-0 lines, which did not record them. */
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  }),
});

const NO_CALLS = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };
type Loose = Record<string, unknown>;

/**
 * Version 0 → 1 of an executions line (the replay agent's shape): every added field is derived from
 * the line itself — a replay has no user simulator, makes no model calls and has no prompts.
 */
export function migrateExecutionLine(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const line = value as Loose;
  if (line.schema_version !== undefined) return value;
  const messages = Array.isArray(line.messages) ? (line.messages as Loose[]) : [];
  const apb = line.apb && typeof line.apb === 'object' ? (line.apb as Loose) : {};
  return {
    schema_version: EXEC_SCHEMA_VERSION,
    user_model: 'none',
    stop_signal: null,
    steps: messages.filter((message) => message?.role !== 'tool').length,
    tool_errors: messages.filter((message) => message?.role === 'tool' && message.error === true)
      .length,
    usage: { agent: NO_CALLS, user: NO_CALLS },
    ...line,
    apb: {
      agent_prompt_version: null,
      user_prompt_version: null,
      planner_prompt_version: null,
      started_at: null,
      finished_at: null,
      ...apb,
    },
  };
}
