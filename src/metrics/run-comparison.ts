/**
 * Two runs on their shared cases (`apb compare RUN_A RUN_B`): overall and per split, the exact
 * McNemar test of paired.ts, and every case on which their verdicts differ, so a change of model,
 * prompt or judge can be read case by case. Pure.
 */
import { SPLITS, type SplitName } from '../dataset/case.js';
import { isCorrect } from './correctness-rate.js';
import { comparePaired, type PairedComparison } from './paired.js';
import type { ResultRow } from './result-row.js';

/** One side of a differing case. */
export interface CaseVerdict {
  correct: boolean;
  grade: number | null;
  status: string;
}

/** A case (split, id, repeat) both runs judged, on which exactly one got it right. */
export interface CaseDifference {
  split: string;
  id: string;
  repeat: number;
  a: CaseVerdict;
  b: CaseVerdict;
}

/** The whole comparison. */
export interface RunComparison {
  a: { label: string; cases: number };
  b: { label: string; cases: number };
  overall: PairedComparison;
  splits: { split: SplitName; comparison: PairedComparison }[];
  differences: CaseDifference[];
}

const key = (row: ResultRow) => `${row.facets.split}\u0000${row.id}\u0000${row.repeat}`;

const verdictOf = (row: ResultRow): CaseVerdict => ({
  correct: isCorrect(row),
  grade: row.grade,
  status: row.plannerStatus === 'ok' ? row.judgeStatus : row.plannerStatus,
});

/** Compares A and B case by case on the cases both judged. */
export function compareRuns(
  a: { label: string; rows: readonly ResultRow[] },
  b: { label: string; rows: readonly ResultRow[] },
): RunComparison {
  const bByKey = new Map(b.rows.map((row) => [key(row), row]));
  const differences: CaseDifference[] = [];
  for (const row of a.rows) {
    const other = bByKey.get(key(row));
    if (!other || isCorrect(row) === isCorrect(other)) continue;
    const { split } = row.facets;
    differences.push({
      split,
      id: row.id,
      repeat: row.repeat,
      a: verdictOf(row),
      b: verdictOf(other),
    });
  }
  const splits = SPLITS.flatMap((split) => {
    const ofSplit = (rows: readonly ResultRow[]) =>
      rows.filter((row) => row.facets.split === split);
    const comparison = comparePaired(ofSplit(a.rows), ofSplit(b.rows));
    return comparison.shared > 0 ? [{ split, comparison }] : [];
  });
  return {
    a: { label: a.label, cases: a.rows.length },
    b: { label: b.label, cases: b.rows.length },
    overall: comparePaired(a.rows, b.rows),
    splits,
    differences,
  };
}
