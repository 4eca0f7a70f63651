/**
 * What the paper's figures share: the figure type, the error labels and keys, series naming and
 * grouping.
 */
import { fixed } from '../numbers.js';

/** One rendered figure. */
export interface Figure {
  id: string;
  caption: string;
  svg: string;
}

export const ERRORS = [
  'E1 goal',
  'E2 incomplete / premature',
  'E3 constraint',
  'E4 logic',
  'E5 tool use',
  'E6 hallucination',
];
export const KEYS = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
export const percent = (value: number) => `${fixed(value, 1)} %`;

export type Labelled = { model: string; judge: string };

/** Series names: the model, with its judge when a model appears under several judges. */
export function namer(rows: readonly Labelled[]): (row: Labelled) => string {
  const judgesOf = new Map<string, Set<string>>();
  for (const row of rows)
    judgesOf.set(row.model, (judgesOf.get(row.model) ?? new Set()).add(row.judge));
  return (row) =>
    (judgesOf.get(row.model)?.size ?? 0) > 1 ? `${row.model} (${row.judge})` : row.model;
}

/** Rows grouped per (model, judge) in first-seen order. */
export function byGroup<T extends Labelled>(rows: readonly T[]): { label: Labelled; rows: T[] }[] {
  const groups = new Map<string, { label: Labelled; rows: T[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.model, row.judge]);
    if (!groups.has(key))
      groups.set(key, { label: { model: row.model, judge: row.judge }, rows: [] });
    groups.get(key)!.rows.push(row);
  }
  return [...groups.values()];
}

export function sharesOf(counts: Record<(typeof KEYS)[number], number>): number[] {
  const total = KEYS.reduce((sum, key) => sum + counts[key], 0);
  return KEYS.map((key) => (total > 0 ? (100 * counts[key]) / total : 0));
}
