/**
 * `ResultRow`: one judged (case, repeat) as the metrics see it, normalised from a judgement line
 * (ours or the official harness's). Metrics are pure functions over arrays of these.
 */
import type { Facets } from '../dataset/case.js';
import type { Findings } from '../judge/checks/findings.js';
import type { BrokenBehavior, ErrorFlags } from '../judge/verdict.js';
import type { Usage } from '../providers/provider.js';

/**
 * The part of the findings the metrics read: D3 distractor use (ExtUse, TC), D5 refusal and the plan
 * cost (Table 5). A row keeps only these: the full findings are ~1 KB of JSON per line (several KB as
 * objects), and a report holds one row per judgement, so the case browser reads the rest from the line.
 */
export interface RowFindings {
  distractorUse: Findings['distractorUse'];
  refusal: { refused: boolean } | null;
  planCost: Findings['planCost'];
}

/** One judged (case, repeat): the input of every metric. */
export interface ResultRow {
  id: string;
  /** `tested_model` of the line. */
  model: string;
  /** `judge_model` of the line. */
  judge: string;
  repeat: number;
  facets: Facets;
  /** Planner outcome: `error` = the call failed after retries, `parse_error` = the answer could not be read. */
  plannerStatus: 'ok' | 'error' | 'parse_error';
  /** Judge outcome: `judge_error` = no readable verdict. Never counted as correct. */
  judgeStatus: 'ok' | 'judge_error';
  /**
   * Strictly parsed correctness; false for a planner `error` or a judge error (a `parse_error`
   * keeps a verdict that credits readable prose).
   */
  correct: boolean;
  /** Plan grade on the grid; null for a judge error (excluded from grade means, counted beside them). */
  grade: number | null;
  errors: ErrorFlags;
  behavior: BrokenBehavior | null;
  refused: boolean | null;
  /** The deterministic findings the metrics read; null for lines without them (official-harness lines). */
  findings: RowFindings | null;
  usage: { planner: Usage | null; judge: Usage | null };
  /** How the planner and judge calls went (latency, attempts, cache), when the line records it. */
  calls?: { planner: CallRecord | null; judge: CallRecord | null };
  /** The case's line in its split file when the line records it (dataset order in reports). */
  datasetLine?: number | null;
  /** Why the planner or judge failed, grouped by a short reason (null when neither failed). */
  failure?: FailureReason | null;
  promptVersion: string | null;
  judgePromptVersion: string | null;
  /** Inference-time refinement behind this answer (paper §5.3, Table 4); absent or null for an unrefined answer. */
  refinement?: RowRefinement | null;
}

/** One recorded model call: its latency (null for a cache hit or a baseline), HTTP attempts and cache use. */
export interface CallRecord {
  latencyMs: number | null;
  attempts: number;
  cached: boolean;
}

/** A failure's reason: `key` groups alike failures (e.g. `planner client 404`), `message` is one example. */
export interface FailureReason {
  key: string;
  message: string;
}

/** How a refined answer was produced: self or critic refinement, with or without the E1–E6 taxonomy. */
export interface RowRefinement {
  mode: 'self' | 'critic';
  /** True for the paper's "(+)" / "w/ Metric" variant, whose reflection prompt lists E1–E6. */
  taxonomy: boolean;
  /** The critic model spec (critic mode only). */
  critic: string | null;
  /** Critique → revision rounds (1 when the line does not say). */
  rounds?: number;
  /** The judge's verdict on the initial answer, recorded with the refined line (the base of Table 4). */
  initial?: { correct: boolean; grade: number | null } | null;
  /** The critique texts, one per round (for the over-correction list). */
  critiques?: string[];
}
