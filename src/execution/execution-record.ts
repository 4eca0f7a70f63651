/**
 * One line of `executions.jsonl` (CONTRACT.md, `apb exec`) as a scripted (replay) agent writes it:
 * the same schema as a model agent's line (`rundir/schemas/exec-lines.ts`), with what a script
 * does not have — a user simulator, model calls, prompts — recorded as absent.
 */
import { ExecutionLineSchema } from '../rundir/schemas/index.js';
import type { ExecMessage, ExecTask, Termination } from './environment.js';
import type { RewardDetails, RewardResult } from './reward.js';
import type { ExecutionLine } from './records.js';

/** The schema of an executions.jsonl line (re-exported for the library). */
export const ExecutionRecordSchema = ExecutionLineSchema;

/** A replay's executions.jsonl line. */
export type ExecutionRecord = Omit<ExecutionLine, 'mode' | 'reward_details'> & {
  mode: 'replay';
  reward_details: RewardDetails;
};

const NO_CALLS = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };

/** Builds the executions.jsonl line of one finished replay. */
export function executionRecord(fields: {
  env: string;
  task: ExecTask;
  model: string;
  trial: number;
  messages: ExecMessage[];
  termination: Termination;
  reward: RewardResult;
  nlJudge: string | null;
  startedAt: string;
  finishedAt: string;
}): ExecutionRecord {
  const { messages } = fields;
  return {
    schema_version: 1,
    task_id: fields.task.id,
    env: fields.env,
    mode: 'replay',
    model: fields.model,
    user_model: 'none',
    trial: fields.trial,
    reward: fields.reward.reward,
    reward_info: fields.reward.reward_info,
    termination: fields.termination,
    stop_signal: null,
    steps: messages.filter((message) => message.role !== 'tool').length,
    tool_errors: messages.filter((message) => message.role === 'tool' && message.error).length,
    messages,
    usage: { agent: NO_CALLS, user: NO_CALLS },
    reward_details: fields.reward.details,
    apb: {
      nl_judge: fields.nlJudge,
      agent_prompt_version: null,
      user_prompt_version: null,
      planner_prompt_version: null,
      started_at: fields.startedAt,
      finished_at: fields.finishedAt,
    },
  };
}
