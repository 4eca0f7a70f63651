/** The line shapes of an exec run directory (`plans.jsonl`, `executions.jsonl`); docs/execution.md lists every field. */
import type { ExecMode } from '../metrics/executable.js';
import type { LoopMessage, LoopRoleUsage, LoopTermination } from './loop.js';
import type { PlanJudgement } from './plan-judgement.js';
import type { PlanRecord, RefinedPlanRecord } from './plans.js';

/** Version of these line shapes. */
export const EXEC_SCHEMA_VERSION = 1;

/** A plan of an opening with its APB judgement. */
export interface JudgedPlan<P extends PlanRecord = PlanRecord> {
  plan: P;
  judgement: PlanJudgement;
}

/** One (task, trial)'s opening, shared by its modes: the user's first message and the plans made from it. */
export interface OpeningLine {
  schema_version: number;
  task_id: string;
  trial: number;
  env: string;
  model: string;
  /** The user simulator that wrote the first message (absent in lines written before it was recorded). */
  user_model?: string;
  /** The user simulator's first message (its answer to the agent's greeting); null when the call failed. */
  first_user_message: string | null;
  first_user_usage: LoopRoleUsage;
  error?: { role: 'user'; kind: string; message: string };
  draft: JudgedPlan | null;
  refined: JudgedPlan<RefinedPlanRecord> | null;
}

/** The reward of one execution, as the environment's evaluator gives it. */
export interface RewardRecord {
  /** 0..1, or null when NL assertions in the basis were not judged. */
  reward: number | null;
  /** Component → 0/1/null, plus `reward_if_nl_met` when NL assertions were not judged. */
  reward_info: Record<string, unknown>;
  /** Why each component came out as it did (database differences, checks, NL judge verdicts). */
  details: Record<string, unknown>;
}

/** One execution: (task, mode, trial). */
export interface ExecutionLine {
  schema_version: number;
  task_id: string;
  env: string;
  mode: ExecMode;
  model: string;
  user_model: string;
  trial: number;
  reward: number | null;
  reward_info: Record<string, unknown>;
  termination: LoopTermination;
  stop_signal: string | null;
  steps: number;
  tool_errors: number;
  messages: LoopMessage[];
  /** plan-first and refine: the plan the agent was given, and its APB judgement before and after refinement. */
  plan?: { shown: string | null; before: JudgedPlan; after?: JudgedPlan<RefinedPlanRecord> };
  usage: { agent: LoopRoleUsage; user: LoopRoleUsage };
  error?: { role: 'agent' | 'user'; kind: string; message: string };
  /** The reward's explanation (`db_differences`, each check, the NL judge's verdicts). */
  reward_details: Record<string, unknown>;
  apb: {
    nl_judge: string | null;
    agent_prompt_version: string;
    user_prompt_version: string;
    planner_prompt_version: string | null;
    started_at: string;
    finished_at: string;
  };
}
