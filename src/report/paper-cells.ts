/**
 * Our cells beside the paper's printed ones: the types, and the readers that take one row of our
 * tables (a model and judge's) and give its cells under the paper's column names.
 */
import type { Interval } from '../metrics/intervals.js';

/** One of our cells beside a printed one. */
export interface OurCell {
  value: number | null;
  /** 95 % interval of a rate (percent); absent where we compute none (grades, counts, costs, deltas). */
  ci?: Interval | null;
  /** The cases behind the cell. */
  n?: number | null;
}

/** A (model, judge) group of ours. */
export interface PaperGroup {
  model: string;
  judge: string;
}

/** A row of our tables, read loosely: each table's spec knows its row's members. */
export type Loose = Record<string, any>;

/** The six error kinds, as our rows name them. */
export const E = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;

/** The row of `group` in one of our tables (and matching `match`), or null. */
export const of = (
  rows: readonly unknown[],
  group: PaperGroup,
  match: (row: Loose) => boolean = () => true,
): Loose | null =>
  (rows as Loose[]).find(
    (row) => row.model === group.model && row.judge === group.judge && match(row),
  ) ?? null;

/** A rate cell with its 95 % interval (under `ci`) and n. */
export const rate = (cell: Loose | undefined, key: string, ci?: string): OurCell => ({
  value: cell?.[key] ?? null,
  ci: ci ? (cell?.[ci] ?? null) : null,
  n: cell?.n ?? null,
});

/** A cell without an interval (grades, counts, costs, deltas). */
export const plain = (value: unknown, n?: number | null): OurCell => ({
  value: typeof value === 'number' ? value : null,
  n: n ?? null,
});

/** A printed label and ours compared case-blind ("Image" and "image"). */
export const lower = (value: unknown) => String(value ?? '').toLowerCase();

/** A summary cell's CR, grade and E rates under the paper's column names (`CR`, `Grade` or `Score`, `E1`…). */
export function summaryCells(cell: Loose, gradeName = 'Grade'): Record<string, OurCell> {
  const cells: Record<string, OurCell> = {
    CR: rate(cell, 'cr', 'cr_ci'),
    [gradeName]: plain(cell.grade, cell.graded ?? cell.n),
  };
  for (const key of E) cells[key.toUpperCase()] = plain(cell[key], cell.n);
  return cells;
}

/**
 * One half (holistic or step-wise) of the extraneous-tools tables (2 and 18): the base and variant
 * CRs, their delta and, where printed, TC or the grades, under `names`.
 */
export function half(
  prefix: string,
  value: Loose,
  names: {
    base: string;
    variants: string;
    delta: string;
    tc?: string;
    grade?: [string, string, string];
  },
): Record<string, OurCell> {
  const cells: Record<string, OurCell> = {
    [`${prefix}_${names.base}`]: {
      value: value.cr_b ?? value.cr_orig ?? null,
      ci: value.cr_b_ci ?? value.cr_orig_ci ?? null,
      n: value.n_b ?? value.n_orig ?? null,
    },
    [`${prefix}_${names.variants}`]: {
      value: value.cr_e ?? value.cr_red ?? null,
      ci: value.cr_e_ci ?? value.cr_red_ci ?? null,
      n: value.n_e ?? value.n_red ?? null,
    },
    [`${prefix}_${names.delta}`]: plain(value.delta ?? value.cr_delta, value.n_pairs),
  };
  if (names.tc) cells[`${prefix}_${names.tc}`] = plain(value.tc, value.n_e_pooled);
  if (names.grade) {
    cells[`${prefix}_${names.grade[0]}`] = plain(value.grade_orig, value.n_orig);
    cells[`${prefix}_${names.grade[1]}`] = plain(value.grade_red, value.n_red);
    cells[`${prefix}_${names.grade[2]}`] = plain(value.grade_delta, value.n_pairs);
  }
  return cells;
}
