/**
 * ToolSandbox's evaluation of one conversation: milestone similarity (1 when a scenario has
 * none), minefield similarity (0 when none), the trajectory's `similarity` (the milestone
 * similarity, or 0 once any minefield matched) and the effective turn count.
 */
import type { ExecutionContext } from './execution-context.js';
import { isOnlyUser } from './execution-context.js';
import { matchMilestones, type MilestoneMapping } from './milestone-matcher.js';
import type { Milestone } from './milestones.js';

/** A scenario's evaluation: milestones and minefields, each with its DAG's edges (null: a chain). */
export interface ScenarioEvaluation {
  milestones: Milestone[];
  milestone_edges: [number, number][] | null;
  minefields: Milestone[];
  minefield_edges: [number, number][] | null;
}

/** ToolSandbox's EvaluationResult. */
export interface EvaluationResult {
  /** milestone index -> [snapshot index, similarity], by milestone index. */
  milestoneMapping: [number, [number, number]][];
  minefieldMapping: [number, [number, number]][];
  milestoneSimilarity: number;
  minefieldSimilarity: number;
  similarity: number;
  turnCount: number;
}

/**
 * Messages that count as turns: not the system's, not between user and execution environment,
 * not user-simulator few-shot ones. A null `visible_to` does not count either (polars' null
 * comparison filters the row out).
 */
export function effectiveTurnCount(context: ExecutionContext): number {
  return context.getDatabase('sandbox', { allHistory: true }).filter((row) => {
    if (row.sender === 'system') return false;
    const userEnv =
      (row.sender === 'user' && row.recipient === 'execution_environment') ||
      (row.sender === 'execution_environment' && row.recipient === 'user');
    if (userEnv) return false;
    return row.visible_to !== null && !isOnlyUser(row.visible_to);
  }).length;
}

function sorted(mapping: MilestoneMapping): [number, [number, number]][] {
  return [...mapping.entries()].sort((a, b) => a[0] - b[0]);
}

/** Evaluates a finished conversation's execution context. */
export function evaluate(
  evaluation: ScenarioEvaluation,
  context: ExecutionContext,
): EvaluationResult {
  const milestones = matchMilestones(evaluation.milestones, evaluation.milestone_edges, context);
  const minefields = matchMilestones(evaluation.minefields, evaluation.minefield_edges, context);
  const milestoneSimilarity = milestones.similarity ?? 1;
  const minefieldSimilarity = minefields.similarity ?? 0;
  return {
    milestoneMapping: sorted(milestones.mapping),
    minefieldMapping: [...minefields.mapping.entries()],
    milestoneSimilarity,
    minefieldSimilarity,
    similarity: minefieldSimilarity === 0 ? milestoneSimilarity : 0,
    turnCount: effectiveTurnCount(context),
  };
}
