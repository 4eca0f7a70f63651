/**
 * Builds ResultRows whose counts reproduce the paper's appendix tables (data/paper-tables.json), for
 * paper-reproduction.test.ts: every printed rate becomes a count k = round(rate · n / 100), every
 * grade a total of grid steps, and the generator checks that the counts print back as the paper.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Facets, SplitName } from '../../src/dataset/case.js';
import { noFindings } from '../../src/judge/checks/findings.js';
import { fakeRow } from '../../src/metrics/fake-rows.fixture.js';
import type { ResultRow } from '../../src/metrics/result-row.js';

const PaperSchema = z
  .object({
    model_aliases: z.record(z.string(), z.string()),
    inferred_denominators: z
      .object({
        table12_cases_per_steps_range: z.object({
          buckets: z.array(z.string()),
          by_model: z.record(z.string(), z.array(z.number())),
        }),
        table17_cases_per_level: z.object({
          levels: z.array(z.number()),
          by_model: z.record(z.string(), z.array(z.number())),
        }),
        table16_cases_per_level: z.number(),
        table14_15_cases_per_row: z.number(),
      })
      .loose(),
    known_paper_inconsistencies: z.array(
      z.object({ id: z.string(), cells: z.array(z.string()) }).loose(),
    ),
    tables: z.record(
      z.string(),
      z.object({ rows: z.array(z.record(z.string(), z.unknown())) }).loose(),
    ),
  })
  .loose();
export type Paper = z.infer<typeof PaperSchema>;
export type PaperRow = Record<string, number | string | boolean | null>;

/** The paper's tables as stored in the repository. */
export function loadPaper(): Paper {
  const file = fileURLToPath(new URL('../../data/paper-tables.json', import.meta.url));
  return PaperSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Rounds half-up to `decimals` places, the way the paper prints (a tiny nudge absorbs binary error). */
export function printed(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale + 1e-7) / scale;
}

/** k of n from a printed percentage. */
export function countOf(rate: number, n: number): number {
  return Math.round((rate * n) / 100);
}

/** The counts behind one table cell. */
export interface Counts {
  n: number;
  correct: number;
  /** Cases flagged E1..E6. */
  errors: number[];
  /** Sum of grades in grid steps of 0.2 (grade = units / 5). */
  gradeUnits: number;
  /** Distractor-tool calls in total. */
  extUse?: number;
}

/** Counts of a printed row: rates → k/n, `grade` → grade units (rounded). */
export function countsOfRow(
  row: PaperRow,
  n: number,
  gradeKey: string,
  extUseKey?: string,
): Counts {
  return {
    n,
    correct: countOf(row.CR as number, n),
    errors: [1, 2, 3, 4, 5, 6].map((index) => countOf(row[`E${index}`] as number, n)),
    gradeUnits: Math.round((row[gradeKey] as number) * 5 * n),
    extUse: extUseKey ? (row[extUseKey] as number) : undefined,
  };
}

/** Rows carrying exactly these counts: the first `correct` rows are correct, errors sit on the last rows. */
export function rowsFromCounts(
  counts: Counts,
  label: {
    model: string;
    idPrefix: string;
    keyPrefix?: string;
    facets: Partial<Facets> & { split: SplitName };
  },
): ResultRow[] {
  const { n, correct, errors, gradeUnits, extUse } = counts;
  return Array.from({ length: n }, (_, index) => {
    const units = Math.floor(gradeUnits / n) + (index < gradeUnits % n ? 1 : 0);
    const uses =
      extUse === undefined ? undefined : Math.floor(extUse / n) + (index < extUse % n ? 1 : 0);
    return fakeRow({
      id: `${label.idPrefix}-${index}`,
      model: label.model,
      judge: 'paper-judge',
      correct: index < correct,
      grade: units / 5,
      errors: errors.map((count) => index >= n - count) as ResultRow['errors'],
      findings:
        uses === undefined
          ? null
          : noFindings({ distractorUse: { names: uses > 0 ? ['decoy'] : [], count: uses } }),
      facets: { ...label.facets, baseCaseKey: `${label.keyPrefix ?? label.idPrefix}-${index}` },
    });
  });
}

/** Grade-unit range [lo, hi] of n cases whose mean prints as `grade` at `decimals` places. */
export function unitRange(grade: number, n: number, decimals: number): { lo: number; hi: number } {
  const fits = Array.from({ length: 5 * n + 1 }, (_, units) => units).filter(
    (units) => printed(units / (5 * n), decimals) === grade,
  );
  if (fits.length === 0) throw new Error(`no grade total of ${n} cases prints as ${grade}`);
  return { lo: fits[0]!, hi: fits[fits.length - 1]! };
}

/** Splits a total over ranges, filling each from its low end. */
export function distribute(total: number, ranges: readonly { lo: number; hi: number }[]): number[] {
  let rest = total - ranges.reduce((sum, range) => sum + range.lo, 0);
  return ranges.map((range) => {
    const extra = Math.max(0, Math.min(rest, range.hi - range.lo));
    rest -= extra;
    return range.lo + extra;
  });
}

/** Re-keys `size` rows of a pool (k correct, the rest not) as the base cases `${prefix}-0…` of a robustness split. */
export function markBaseCases(
  pool: readonly ResultRow[],
  size: number,
  correct: number,
  prefix: string,
): void {
  const right = pool.filter((row) => row.correct).slice(0, correct);
  const wrong = pool.filter((row) => !row.correct).slice(0, size - correct);
  if (right.length !== correct || wrong.length !== size - correct)
    throw new Error(`pool cannot hold ${correct}/${size} base cases`);
  [...right, ...wrong].forEach((row, index) => {
    row.facets.baseCaseKey = `${prefix}-${index}`;
  });
}
