/**
 * The common table cell: correctness rate (+ CI), plan grade, E1–E6 incidence and failure counts of
 * one group of rows, and the paper's composite of such cells (an unweighted mean over strata).
 */
import { correctnessRate, type CorrectnessRate } from './correctness-rate.js';
import { errorRates, mapErrors, type ErrorRates } from './error-incidence.js';
import { compositeWilson } from './intervals.js';
import { planGrade, type PlanGrade } from './plan-grade.js';
import type { ResultRow } from './result-row.js';

/** CR, grade and E-rates of one group, with n and the failure counts (one Table 1 block, one Table 12–17 row). */
export type CellSummary = CorrectnessRate & PlanGrade & ErrorRates;

/** Summarises one group of rows (paper §3.3 metrics; denominators as in each metric's file). */
export function summarize(rows: readonly ResultRow[]): CellSummary {
  return { ...correctnessRate(rows), ...planGrade(rows), ...errorRates(rows) };
}

function mean(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length > 0
    ? present.reduce((sum, value) => sum + value, 0) / present.length
    : null;
}

/**
 * Unweighted mean of cells over strata (paper Table 1: step-wise = mean over horizons 1/2/3,
 * tool-extraneous = mean of the holistic and step-wise halves). Empty strata are left out, so the
 * mean is over the strata present; counts (n, correct, graded, failures) are summed; the CR interval
 * is the Kish-effective-n Wilson interval (intervals.ts).
 */
export function meanOfCells(cells: readonly CellSummary[]): CellSummary {
  const present = cells.filter((cell) => cell.n > 0);
  const sum = (pick: (cell: CellSummary) => number) =>
    present.reduce((total, cell) => total + pick(cell), 0);
  const cr = mean(present.map((cell) => cell.cr));
  return {
    n: sum((cell) => cell.n),
    errors: sum((cell) => cell.errors),
    parse_errors: sum((cell) => cell.parse_errors),
    judge_errors: sum((cell) => cell.judge_errors),
    correct: sum((cell) => cell.correct),
    cr,
    cr_ci: compositeWilson(
      cr,
      present.map((cell) => cell.n),
    ),
    grade: mean(present.map((cell) => cell.grade)),
    graded: sum((cell) => cell.graded),
    ...mapErrors((key) => mean(present.map((cell) => cell[key]))),
  };
}

/** The E1–E6 columns of a cell, e.g. to re-key them. */
export function errorColumns(cell: CellSummary): ErrorRates {
  return mapErrors((key) => cell[key]);
}
