/**
 * Correctness rate (paper §3.3 "Plan Correctness"; Table 1 "CR") and the failure counts every table
 * cell carries beside it. Denominator: every case of the group. Planner `error` / `parse_error` and
 * judge `judge_error` rows count as not correct and are also reported as their own counts.
 */
import { clusteredWilson, wilson, type Cluster, type Interval } from './intervals.js';
import type { ResultRow } from './result-row.js';

/** Cases in a group, and how many of them failed before a verdict: planner errors, unreadable answers, judge errors. */
export interface FailureCounts {
  n: number;
  /** Planner call failed after retries (`plannerStatus: error`). */
  errors: number;
  /** Planner answer could not be read (`plannerStatus: parse_error`). */
  parse_errors: number;
  /** No readable verdict (`judgeStatus: judge_error`), whatever the planner did. */
  judge_errors: number;
}

/** Counts the cases of a group and their failures; a row with both a planner and a judge failure counts in both. */
export function failureCounts(rows: readonly ResultRow[]): FailureCounts {
  const counts: FailureCounts = { n: rows.length, errors: 0, parse_errors: 0, judge_errors: 0 };
  for (const row of rows) {
    if (row.plannerStatus === 'error') counts.errors += 1;
    if (row.plannerStatus === 'parse_error') counts.parse_errors += 1;
    if (row.judgeStatus === 'judge_error') counts.judge_errors += 1;
  }
  return counts;
}

/** A correctness rate with its 95 % Wilson interval and the failure counts behind it. */
export interface CorrectnessRate extends FailureCounts {
  /** Percent of all cases judged correct (0–100, unrounded); null for an empty group. */
  cr: number | null;
  cr_ci: Interval | null;
  correct: number;
  /**
   * Present only when some case was drawn more than once (`--repeats` > 1): the design effect of
   * clustering by case, by which the interval's effective n is N / design_effect (intervals.ts).
   */
  design_effect?: number;
}

/** The rows' correct counts per case (split and id), when some case has more than one row; null otherwise. */
export function caseClusters(rows: readonly ResultRow[]): Cluster[] | null {
  const byCase = new Map<string, Cluster>();
  for (const row of rows) {
    const key = `${row.facets.split}\u0000${row.id}`;
    const cluster = byCase.get(key) ?? { successes: 0, n: 0 };
    cluster.n += 1;
    if (isCorrect(row)) cluster.successes += 1;
    byCase.set(key, cluster);
  }
  return byCase.size < rows.length ? [...byCase.values()] : null;
}

/**
 * True when the row counts as correct: an answer (no planner `error`), a readable verdict, and that verdict
 * says correct. A `parse_error` answer (no JSON: prose) counts only when its verdict credits it — a reasoned
 * prose refusal the judge accepts (issue 11); empty, garbage or cut-off text never gets that verdict, since
 * judging guards it (`guardParseFailure`).
 */
export function isCorrect(row: ResultRow): boolean {
  return row.correct && row.plannerStatus !== 'error' && row.judgeStatus === 'ok';
}

/**
 * Correctness rate over every case of the group (paper §3.3); failures count as not correct. With
 * repeats the interval is clustered by case and the design effect is given.
 */
export function correctnessRate(rows: readonly ResultRow[]): CorrectnessRate {
  const correct = rows.filter(isCorrect).length;
  const clusters = caseClusters(rows);
  const clustered = clusters ? clusteredWilson(clusters) : null;
  return {
    ...failureCounts(rows),
    cr: rows.length > 0 ? (100 * correct) / rows.length : null,
    cr_ci: clustered ? clustered.ci : wilson(correct, rows.length),
    correct,
    ...(clustered ? { design_effect: clustered.design_effect } : {}),
  };
}
