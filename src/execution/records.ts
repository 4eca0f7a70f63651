/**
 * The line shapes of an exec run directory (`plans.jsonl`, `executions.jsonl`): the types of
 * `rundir/schemas/exec-lines.ts`, with the objects other modules own (the parsed `Attempt`, the
 * refinement rounds, the loop's messages) typed as those modules define them. docs/execution.md.
 */
import type { z } from 'zod';
import type {
  ExecutionLineSchema,
  OpeningLineSchema,
  RoleUsageSchema,
} from '../rundir/schemas/index.js';
import type { ExecMode } from '../metrics/executable.js';
import type { LoopMessage } from './loop.js';
import type { PlanJudgement } from './plan-judgement.js';
import type { PlanRecord, RefinedPlanRecord } from './plans.js';

export { EXEC_SCHEMA_VERSION } from '../rundir/schemas/index.js';

/** A plan of an opening with its APB judgement. */
export interface JudgedPlan<P extends PlanRecord = PlanRecord> {
  plan: P;
  judgement: PlanJudgement;
}

type Opening = z.infer<typeof OpeningLineSchema>;
type Execution = z.infer<typeof ExecutionLineSchema>;

/** One (task, trial)'s opening, shared by its modes: the user's first message and the plans made from it. */
export type OpeningLine = Omit<Opening, 'draft' | 'refined'> & {
  draft: JudgedPlan | null;
  refined: JudgedPlan<RefinedPlanRecord> | null;
};

/** The reward of one execution, as the environment's evaluator gives it. */
export interface RewardRecord {
  /** 0..1, or null when NL assertions in the basis were not judged. */
  reward: number | null;
  /** Component → 0/1/null, plus `reward_if_nl_met` when NL assertions were not judged. */
  reward_info: Execution['reward_info'];
  /** Why each component came out as it did (database differences, checks, NL judge verdicts). */
  details: Record<string, unknown>;
  /** The environment's own line fields (ToolSandbox: `similarity`, `milestone_similarities`, …). */
  fields?: Record<string, unknown>;
}

/** One role's calls and tokens in a conversation. */
export type RoleUsage = z.infer<typeof RoleUsageSchema>;

/** One model-agent execution: (task, mode, trial); a replay's lines have `mode: 'replay'`. */
export type ExecutionLine = Omit<Execution, 'mode' | 'messages' | 'plan'> & {
  mode: ExecMode;
  messages: LoopMessage[];
  /** plan-first and refine: the plan the agent was given, and its APB judgement before and after refinement. */
  plan?: { shown: string | null; before: JudgedPlan; after?: JudgedPlan<RefinedPlanRecord> };
};
