/**
 * Official-harness judgement lines whose counts reproduce the paper's per-horizon (Table 14) and
 * per-level (Tables 16, 17) numbers for each model: rates → k of n, grades → totals of 0.2 steps.
 * Extraneous grades are printed at 2 decimals per level, so each level's total is chosen inside
 * what prints back as the paper (Tables 16/17), with the two halves' totals fitting Table 18 and 1.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const PaperSchema = z
  .object({
    model_aliases: z.record(z.string(), z.string()),
    inferred_denominators: z
      .object({
        table17_cases_per_level: z
          .object({
            levels: z.array(z.number()),
            by_model: z.record(z.string(), z.array(z.number())),
          })
          .loose(),
      })
      .loose(),
    known_paper_inconsistencies: z.array(
      z.object({ id: z.string(), cells: z.array(z.string()) }).loose(),
    ),
    tables: z.record(
      z.string(),
      z
        .object({
          rows: z.array(z.record(z.string(), z.unknown())),
          decimals: z.record(z.string(), z.unknown()).optional(),
        })
        .loose(),
    ),
  })
  .loose();
export type Paper = z.infer<typeof PaperSchema>;
type Row = Record<string, unknown>;

/** data/paper-tables.json. */
export function loadPaper(): Paper {
  return PaperSchema.parse(
    JSON.parse(
      readFileSync(fileURLToPath(new URL('../../data/paper-tables.json', import.meta.url)), 'utf8'),
    ),
  );
}

/** Half-up rounding as the paper prints. */
export function printed(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale + 1e-7) / scale;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const count = (rate: unknown, n: number) => Math.round(((rate as number) * n) / 100);

/** The grade totals (in 0.2 steps) over n cases that print as `grade` at `decimals`. */
function unitRange(grade: number, n: number, decimals: number): { lo: number; hi: number } {
  let lo = Math.round(grade * 5 * n);
  let hi = lo;
  while (lo > 0 && printed((lo - 1) / (5 * n), decimals) === grade) lo -= 1;
  while (hi < 5 * n && printed((hi + 1) / (5 * n), decimals) === grade) hi += 1;
  return { lo, hi };
}

/** Spreads `total` over ranges, each between its lo and hi. */
function distribute(total: number, ranges: { lo: number; hi: number }[]): number[] {
  const values = ranges.map((range) => range.lo);
  let rest = total - sum(values);
  ranges.forEach((range, index) => {
    const add = Math.min(rest, range.hi - range.lo);
    values[index]! += add;
    rest -= add;
  });
  return values;
}

/** One group of cases: n rows, the first `correct` correct, error k on the last errors[k] rows, grade units spread evenly. */
interface Counts {
  n: number;
  correct: number;
  errors: number[];
  units: number;
}

function judgements(
  counts: Counts,
): { is_correct: boolean; grade: number; error_list: number[] }[] {
  return Array.from({ length: counts.n }, (_, index) => ({
    is_correct: index < counts.correct,
    grade: (Math.floor(counts.units / counts.n) + (index < counts.units % counts.n ? 1 : 0)) / 5,
    error_list: counts.errors.map((flags) => (index >= counts.n - flags ? 1 : 0)),
  }));
}

/** Every judgement line of one model (step-wise by horizon, both tool-extraneous halves by level). */
export function paperModelLines(
  paper: Paper,
  model: string,
  judge = 'gemini-3-pro-preview',
): Row[] {
  const canon = (name: unknown) => paper.model_aliases[name as string] ?? (name as string);
  const rows = (table: string) =>
    paper.tables[table]!.rows.filter((row) => canon(row.model) === model).sort(
      (a, b) => Number(a.level ?? 0) - Number(b.level ?? 0),
    );
  // Case ids are shared across models, as in the released benchmark: every model answers the same cases.
  const lines: Row[] = [];
  const emit = (split: string, key: string, counts: Counts, extra: Row) =>
    judgements(counts).forEach((judgement, index) =>
      lines.push({
        id: `${key}-${index}`,
        split,
        query: `${split} ${key} case ${index}`,
        ...extra,
        tested_model: model,
        model_response: 'answer',
        judge_model: judge,
        judgement: { ...judgement, reasoning: 'generated' },
      }),
    );
  for (const row of rows('table14_stepwise_by_horizon')) {
    const horizon = Number.parseInt(String(row.horizon), 10);
    emit(
      'step_wise_planning',
      `h${horizon}`,
      {
        n: 300,
        correct: count(row.CR, 300),
        errors: [1, 2, 3, 4, 5, 6].map((k) => count(row[`E${k}`], 300)),
        units: Math.round((row.Score as number) * 1500),
      },
      { prediction_horizon: horizon },
    );
  }
  const holisticSizes = paper.inferred_denominators.table17_cases_per_level.by_model[model]!;
  const halves = extraneousUnits(
    paper,
    model,
    rows('table17_holistic_extraneous_by_level'),
    holisticSizes,
    rows('table16_stepwise_extraneous_by_level'),
  );
  const level = (
    split: string,
    prefix: string,
    levelRows: Row[],
    sizes: number[],
    units: number[],
  ) =>
    levelRows.forEach((row, index) => {
      const n = sizes[index]!;
      const distractors = Array.from({ length: row.level as number }, (_, k) => `distractor_${k}`);
      emit(
        split,
        `${prefix}${row.level}`,
        {
          n,
          correct: count(row.CR, n),
          errors: [1, 2, 3, 4, 5, 6].map((k) => count(row[`E${k}`], n)),
          units: units[index]!,
        },
        {
          extraneous_tool_names_json: JSON.stringify(distractors),
          prediction_horizon: prefix === 'sl' ? 1 : null,
        },
      );
    });
  level(
    'holistic_tool_extraneous',
    'hl',
    rows('table17_holistic_extraneous_by_level'),
    holisticSizes,
    halves.holistic,
  );
  level(
    'step_wise_tool_extraneous',
    'sl',
    rows('table16_stepwise_extraneous_by_level'),
    [150, 150, 150, 150, 150],
    halves.stepWise,
  );
  return lines;
}

/** Per-level grade totals of both halves consistent with Tables 16/17 (per level), 18 (per half) and 1 (their mean). */
function extraneousUnits(
  paper: Paper,
  model: string,
  holisticRows: Row[],
  holisticSizes: number[],
  stepRows: Row[],
): { holistic: number[]; stepWise: number[] } {
  const canon = (name: unknown) => paper.model_aliases[name as string] ?? (name as string);
  const one = (table: string) =>
    paper.tables[table]!.rows.find((row) => canon(row.model) === model)!;
  const half = (levelRows: Row[], sizes: number[], printedHalf: number) => {
    const ranges = levelRows.map((row, index) => unitRange(row.Grade as number, sizes[index]!, 2));
    const n = sum(sizes);
    const totals: number[] = [];
    for (
      let total = sum(ranges.map((range) => range.lo));
      total <= sum(ranges.map((range) => range.hi));
      total += 1
    )
      if (printed(total / (5 * n), 2) === printedHalf) totals.push(total);
    return { ranges, n, totals };
  };
  const t18 = one('table18_extraneous_average');
  const holistic = half(holisticRows, holisticSizes, t18.holistic_score_red as number);
  const stepWise = half(stepRows, [150, 150, 150, 150, 150], t18.stepwise_score_red as number);
  const target = one('table1_holistic_extraneous').extraneous_Grade as number;
  for (const h of holistic.totals) {
    for (const s of stepWise.totals) {
      if (printed((h / (5 * holistic.n) + s / (5 * stepWise.n)) / 2, 2) === target)
        return {
          holistic: distribute(h, holistic.ranges),
          stepWise: distribute(s, stepWise.ranges),
        };
    }
  }
  throw new Error(`${model}: no grade totals fit Tables 16/17/18 and 1`);
}
