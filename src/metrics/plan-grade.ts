/**
 * Plan grade (paper §3.3 "Plan Grade", grid {0, .2, .4, .6, .8, 1}; Table 1 "Grade"). The mean is
 * over rows that carry a grade: `judge_error` rows (grade null) are excluded and counted in
 * `judge_errors` beside it; planner failures enter with the grade their line carries (0).
 */
import type { ResultRow } from './result-row.js';

/** A mean plan grade and how many rows it averages. */
export interface PlanGrade {
  /** Mean grade, 0–1 unrounded; null when no row has a grade. */
  grade: number | null;
  /** Rows with a grade (the mean's denominator). */
  graded: number;
}

/** Mean plan grade over the rows that have one (paper §3.3). */
export function planGrade(rows: readonly ResultRow[]): PlanGrade {
  let sum = 0;
  let graded = 0;
  for (const row of rows) {
    if (row.grade === null) continue;
    sum += row.grade;
    graded += 1;
  }
  return { grade: graded > 0 ? sum / graded : null, graded };
}
