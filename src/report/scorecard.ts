/**
 * The headline scorecard: Table 1's five headline numbers of one (model, judge) with their 95 %
 * intervals and n — holistic CR, step-wise CR, tool-extraneous CR, tool-broken Replace share (the
 * paper's optimal behaviour, §4.2.3) and unsolvable pass rate over every type. Pure; the end-of-run
 * summary and every report format read the same cells.
 */
import { wilson, type Interval } from '../metrics/intervals.js';
import type { Table1Row } from '../metrics/table1.js';

/** One headline number: a percentage (0–100, unrounded) with its interval and n. */
export interface HeadlineCell {
  key: 'holistic' | 'step_wise' | 'tool_extraneous' | 'tool_broken' | 'unsolvable';
  label: string;
  value: number | null;
  ci: Interval | null;
  n: number;
}

/** What each headline number is, as the reports explain it. */
export const HEADLINE_NOTES = {
  holistic: 'correctness rate over every holistic_planning case',
  step_wise: 'correctness rate, unweighted mean over prediction horizons',
  tool_extraneous: 'correctness rate, mean of the holistic and step-wise halves',
  tool_broken:
    "share of cases whose behaviour is Replace (switching to the substitute tool), the paper's optimal behaviour; tool-broken is scored by behaviour, not by CR",
  unsolvable: 'pass (correct refusal) rate over every unsolvable type',
} as const;

/** What "correct" counts in the totals and the progress line, so they agree with the behaviour and pass columns. */
export const TOTALS_CORRECT_NOTE =
  "Correct counts the judge's verdicts: for tool-broken cases a Replace or Alter behaviour, for unsolvable cases a correct refusal (Table 1 shows those splits by behaviour and by pass rate).";

/** The key of a headline number. */
export type HeadlineKey = HeadlineCell['key'];
/** The headline keys, in the scorecard's order. */
export const HEADLINE_KEYS: readonly HeadlineKey[] = [
  'holistic',
  'step_wise',
  'tool_extraneous',
  'tool_broken',
  'unsolvable',
];

/**
 * Table 1's five headline cells of one row; a block with no case has value null and n 0. Tool-broken
 * cases that carry no behaviour at all (official-harness lines) give no Replace share: "–", not 0.
 */
export function headlineCells(row: Table1Row): HeadlineCell[] {
  const broken = row.tool_broken;
  const unsolvable = row.unsolvable;
  const noBehaviour = broken.n > 0 && broken.unclassified >= broken.n;
  return [
    {
      key: 'holistic',
      label: 'Holistic CR',
      value: row.holistic.cr,
      ci: row.holistic.cr_ci,
      n: row.holistic.n,
    },
    {
      key: 'step_wise',
      label: 'Step-wise CR',
      value: row.step_wise.cr,
      ci: row.step_wise.cr_ci,
      n: row.step_wise.n,
    },
    {
      key: 'tool_extraneous',
      label: 'Tool-extraneous CR',
      value: row.tool_extraneous.cr,
      ci: row.tool_extraneous.cr_ci,
      n: row.tool_extraneous.n,
    },
    {
      key: 'tool_broken',
      label: 'Tool-broken Replace',
      value: noBehaviour ? null : broken.replace,
      ci: noBehaviour ? null : wilson(broken.counts.replace, broken.n),
      n: broken.n,
    },
    {
      key: 'unsolvable',
      label: 'Unsolvable pass',
      value: unsolvable.n > 0 ? (100 * unsolvable.passed) / unsolvable.n : null,
      ci: wilson(unsolvable.passed, unsolvable.n),
      n: unsolvable.n,
    },
  ];
}

/** One scorecard row. */
export interface ScorecardRow {
  model: string;
  judge: string;
  cells: HeadlineCell[];
  /** Place by the ranking headline (1 = best; ties share a place); null when the row has no value for it. */
  rank?: number | null;
  /** The status of a run of this row that did not finish (failed, interrupted, …); null when all finished. */
  unfinished?: string | null;
}

/** The scorecard: one row per (model, judge) of Table 1, in its order. */
export function scorecard(table1: readonly Table1Row[]): ScorecardRow[] {
  return table1.map((row) => ({ model: row.model, judge: row.judge, cells: headlineCells(row) }));
}

/**
 * The scorecard ranked by one headline, best first: rows without a value for it last, ties in
 * their earlier order and sharing a place (competition ranking: 1, 2, 2, 4).
 */
export function rankScorecard(rows: readonly ScorecardRow[], by: HeadlineKey): ScorecardRow[] {
  const valueOf = (row: ScorecardRow) => row.cells.find((cell) => cell.key === by)?.value ?? null;
  const order = rows
    .map((row, index) => ({ row, index, value: valueOf(row) }))
    .sort((a, b) =>
      a.value === null || b.value === null
        ? (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) || a.index - b.index
        : b.value - a.value || a.index - b.index,
    );
  return order.map(({ row, value }) => ({
    ...row,
    rank: value === null ? null : 1 + order.filter((other) => (other.value ?? -1) > value).length,
  }));
}
