/**
 * The ToolSandbox fields of an executions.jsonl line (CONTRACT: in place of tau2's
 * `reward_info`): `similarity`, `milestone_similarities` (by milestone, in milestone order),
 * `minefield_hit`, `turns` (ToolSandbox's effective turn count) and `termination`.
 */
import type { EvaluationResult } from './evaluation.js';

/** How a ToolSandbox conversation ended. */
export type ToolSandboxTermination = 'user_stop' | 'max_messages' | 'agent_error' | 'user_error';

/** The line's ToolSandbox fields. */
export interface ToolSandboxRecordFields {
  similarity: number;
  milestone_similarities: number[];
  minefield_hit: boolean;
  turns: number;
  termination: ToolSandboxTermination;
}

/** The fields for one evaluated conversation; milestones the mapping skipped score 0. */
export function recordFields(
  result: EvaluationResult,
  milestoneCount: number,
  termination: ToolSandboxTermination,
): ToolSandboxRecordFields {
  const byMilestone = new Map(
    result.milestoneMapping.map(([m, [, similarity]]) => [m, similarity]),
  );
  return {
    similarity: result.similarity,
    milestone_similarities: Array.from(
      { length: milestoneCount },
      (_, m) => byMilestone.get(m) ?? 0,
    ),
    minefield_hit: result.minefieldSimilarity > 0,
    turns: result.turnCount,
    termination,
  };
}
