/**
 * Reproduces the paper's Table 1 (and Tables 2 and 18) from rows rebuilt out of its appendix tables:
 * Table 12 → holistic, Table 14 → step-wise (300 cases per horizon), Tables 17/16 → tool-extraneous
 * per level (with the inferred per-level denominators, e.g. 149), Table 18 "Orig" → the base cases,
 * Table 1's own shares → tool-broken and unsolvable. Rates become exact counts (k = round(rate·n/100));
 * per-level grades are printed to two decimals only, so their totals are chosen (among those that
 * print as every printed grade: Tables 16/17 per level, Table 18 per half, Table 1) — the CR and E
 * cells are the strong check. Rounding: half-up, one decimal for rates, two for grades.
 *
 * Skipped cells (each asserted to really differ, so the list cannot rot), all listed in
 * data/paper-tables.json known_paper_inconsistencies: the Qwen3VL-32B E3..E6 shift, the three
 * last-digit slips, the Table 1 E2 cells built on the two Table 17 rates that are not k/n, and two
 * found by this test: Table 1 Tool-Extraneous E4 of GPT-5 (8.54 → printed 8.6), Gemini 3 Pro
 * (7.55 → 7.6), Claude Sonnet 4.5 (7.75 → 7.8) and E6 of InternVL3.5-241B (6.15 → 6.2), one unit high
 * in the last digit under every composition tried (pooled or level-mean halves, from exact counts);
 * and Table 2 holistic Δ of Gemini 3 Pro and GPT-4o, which round Table 18's two-decimal Δ (−7.25,
 * −5.25) again.
 * The E2-H / E2-S header swap is honoured, not skipped: our e2_h is compared with the column printed
 * "E2-S" and our e2_s with "E2-H" (and the unswapped reading is shown to fail for every model).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../src/metrics/result-row.js';
import { computeTables, type Tables } from '../../src/metrics/tables.js';
import {
  countOf,
  countsOfRow,
  distribute,
  loadPaper,
  markBaseCases,
  printed,
  rowsFromCounts,
  unitRange,
  type PaperRow,
} from './paper-rows.js';

const paper = loadPaper();
const canon = (name: unknown) => paper.model_aliases[name as string] ?? (name as string);
const rowsOf = (table: string) => paper.tables[table]!.rows as PaperRow[];
const byModel = (table: string, model: string) =>
  rowsOf(table).filter((row) => canon(row.model) === model);
const one = (table: string, model: string) => byModel(table, model)[0]!;
const MODELS = rowsOf('table1_holistic_extraneous').map((row) => canon(row.model));
const known = (id: string) =>
  paper.known_paper_inconsistencies.find((entry) => entry.id === id)!.cells;

/** `${model}/${column}` → why the cell is not compared. */
const SKIP = new Map<string, string>([
  ...known('table1_last_digit_slips').map((cell) => [cell, 'known last-digit slip'] as const),
  ...known('table1_extraneous_E3_E6_shifted').flatMap((model) =>
    // E6 is printed twice; the second copy sits in its own column and is right, so only E3..E5 differ.
    ['E3', 'E4', 'E5'].map(
      (error) => [`${model}/extraneous_${error}`, 'known E3..E6 shift'] as const,
    ),
  ),
  ...known('level_rate_not_k_over_n').map(
    (cell) =>
      [`${canon(cell.split('/')[1])}/extraneous_E2-S`, `built on ${cell}, not k/n`] as const,
  ),
  ...known('table1_extraneous_last_digit_high').map(
    (cell) => [cell, 'known: one unit high in the last digit'] as const,
  ),
  ...known('table2_delta_rounded_twice').map(
    (cell) => [cell.replace('/', '/T2 '), 'known: Table 18 Δ rounded a second time'] as const,
  ),
]);
const LEVEL_TYPOS = new Set(
  known('level_rate_not_k_over_n').map((cell) =>
    cell.replace(/^table17\/([^/]+)/, (_, name: string) => `table17/${canon(name)}`),
  ),
);

const STEP_OF_RANGE: Record<string, number> = {
  '1-5': 3,
  '6-10': 8,
  '11-15': 13,
  '16-20': 18,
  '>20': 25,
};
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const sortByLevel = (rows: PaperRow[]) =>
  [...rows].sort((a, b) => (a.level as number) - (b.level as number));

/** Grade totals per level of both extraneous halves, consistent with Tables 16/17 (per level), 18 (per half) and 1. */
function extraneousGradeUnits(model: string, holisticSizes: number[]) {
  const half = (rows: PaperRow[], sizes: number[], printedHalf: number) => {
    const ranges = rows.map((row, index) => unitRange(row.Grade as number, sizes[index]!, 2));
    const n = sum(sizes);
    const totals: number[] = [];
    for (
      let total = sum(ranges.map((range) => range.lo));
      total <= sum(ranges.map((range) => range.hi));
      total += 1
    ) {
      if (printed(total / (5 * n), 2) === printedHalf) totals.push(total);
    }
    return { ranges, n, totals };
  };
  const t18 = one('table18_extraneous_average', model);
  const holistic = half(
    sortByLevel(byModel('table17_holistic_extraneous_by_level', model)),
    holisticSizes,
    t18.holistic_score_red as number,
  );
  const stepWise = half(
    sortByLevel(byModel('table16_stepwise_extraneous_by_level', model)),
    [150, 150, 150, 150, 150],
    t18.stepwise_score_red as number,
  );
  const target = one('table1_holistic_extraneous', model).extraneous_Grade as number;
  for (const h of holistic.totals) {
    for (const s of stepWise.totals) {
      if (printed((h / (5 * holistic.n) + s / (5 * stepWise.n)) / 2, 2) === target) {
        return {
          holistic: distribute(h, holistic.ranges),
          stepWise: distribute(s, stepWise.ranges),
        };
      }
    }
  }
  throw new Error(`${model}: no grade totals fit Tables 16/17/18 and 1`);
}

/** Every row of one model, rebuilt from the appendix tables. */
function modelRows(model: string): ResultRow[] {
  const label = (
    idPrefix: string,
    facets: Parameters<typeof rowsFromCounts>[1]['facets'],
    keyPrefix?: string,
  ) => ({ model, idPrefix, keyPrefix, facets });
  const sizes12 = paper.inferred_denominators.table12_cases_per_steps_range.by_model[model]!;
  const holistic = byModel('table12_holistic_by_step_range', model).flatMap((row, index) => {
    const n = sizes12[index]!;
    const counts = {
      ...countsOfRow({ ...row, E1: 0, E2: 0, E3: 0, E4: 0, E5: 0, E6: 0 }, n, 'Grade'),
      errors: [1, 2, 3, 4, 5, 6].map((e) => row[`E${e}_n`] as number),
    };
    counts.gradeUnits = Math.round((row.Grade as number) * 5 * n);
    return rowsFromCounts(
      counts,
      label(`h${index}`, {
        split: 'holistic_planning',
        referenceSteps: STEP_OF_RANGE[row.steps_range as string]!,
      }),
    );
  });
  const stepWise = byModel('table14_stepwise_by_horizon', model).flatMap((row) => {
    const horizon = Number(String(row.horizon)[0]) as 1 | 2 | 3;
    return rowsFromCounts(
      countsOfRow(row, 300, 'Score'),
      label(`s${horizon}`, { split: 'step_wise_planning', horizon }),
    );
  });
  const sizes17 = paper.inferred_denominators.table17_cases_per_level.by_model[model]!;
  const grades = extraneousGradeUnits(model, sizes17);
  const extraneous = (
    table: string,
    split: 'holistic_tool_extraneous' | 'step_wise_tool_extraneous',
    sizes: number[],
    units: number[],
    key: string,
  ) =>
    sortByLevel(byModel(table, model)).flatMap((row, index) =>
      rowsFromCounts(
        { ...countsOfRow(row, sizes[index]!, 'Grade', 'ExtUse'), gradeUnits: units[index]! },
        label(
          `${split}-${row.level}`,
          {
            split,
            distractorLevel: row.level as number,
            horizon: split.startsWith('step') ? 1 : null,
          },
          key,
        ),
      ),
    );
  const holisticExtraneous = extraneous(
    'table17_holistic_extraneous_by_level',
    'holistic_tool_extraneous',
    sizes17,
    grades.holistic,
    'hb',
  );
  const stepWiseExtraneous = extraneous(
    'table16_stepwise_extraneous_by_level',
    'step_wise_tool_extraneous',
    [150, 150, 150, 150, 150],
    grades.stepWise,
    'sb',
  );
  const t18 = one('table18_extraneous_average', model);
  const baseSize = Math.max(...sizes17);
  markBaseCases(holistic, baseSize, countOf(t18.holistic_cr_orig as number, baseSize), 'hb');
  markBaseCases(stepWise, 150, countOf(t18.stepwise_cr_orig as number, 150), 'sb');
  return [
    ...holistic,
    ...stepWise,
    ...holisticExtraneous,
    ...stepWiseExtraneous,
    ...brokenAndUnsolvable(model),
  ];
}

function brokenAndUnsolvable(model: string): ResultRow[] {
  const t1 = one('table1_stepwise_broken_unsolvable', model);
  const shares = {
    replace: 'broken_Rp',
    alter: 'broken_Al',
    retry: 'broken_Rt',
    refuse: 'broken_Rf',
  } as const;
  const counts = Object.entries(shares).map(
    ([behavior, column]) => [behavior, countOf(t1[column] as number, 300)] as const,
  );
  const behaviours = [
    ...counts,
    ['other', 300 - sum(counts.map(([, count]) => count))] as const,
  ].flatMap(([behavior, count]) => Array<string>(count).fill(behavior));
  const broken = rowsFromCounts(
    { n: 300, correct: 0, errors: [0, 0, 0, 0, 0, 0], gradeUnits: 0 },
    { model, idPrefix: 'b', facets: { split: 'step_wise_tool_broken', horizon: 1 } },
  );
  broken.forEach((row, index) => (row.behavior = behaviours[index] as ResultRow['behavior']));
  const types = {
    unsolvable_Conf: 'contradictory_constraints',
    unsolvable_Info: 'information_missing',
    unsolvable_Tool: 'tool_removal',
    unsolvable_Vis: 'visual_missing',
  } as const;
  const unsolvable = Object.entries(types).flatMap(([column, unsolvableType]) =>
    rowsFromCounts(
      { n: 100, correct: t1[column] as number, errors: [0, 0, 0, 0, 0, 0], gradeUnits: 0 },
      {
        model,
        idPrefix: `u-${unsolvableType}`,
        facets: { split: 'holistic_unsolvable', unsolvableType },
      },
    ),
  );
  return [...broken, ...unsolvable];
}

interface Cell {
  key: string;
  ours: number | null;
  paper: number;
  decimals: number;
}

function compare(cells: Cell[]): { mismatches: string[]; skippedButEqual: string[] } {
  const mismatches: string[] = [];
  const skippedButEqual: string[] = [];
  for (const cell of cells) {
    const equal = cell.ours !== null && printed(cell.ours, cell.decimals) === cell.paper;
    if (SKIP.has(cell.key)) {
      if (equal) skippedButEqual.push(cell.key);
    } else if (!equal)
      mismatches.push(
        `${cell.key}: ours ${cell.ours} → ${cell.ours === null ? null : printed(cell.ours, cell.decimals)}, paper ${cell.paper}`,
      );
  }
  return { mismatches, skippedButEqual };
}

let tables: Tables;
beforeAll(() => {
  tables = computeTables(MODELS.flatMap(modelRows), { pairwise: false });
});

const table1Of = (model: string) => tables.table1.find((row) => row.model === model)!;

describe.each(MODELS)('%s', (model) => {
  it('Table 1 step-wise = mean of the Table 14 horizons', () => {
    const printedRow = one('table1_stepwise_broken_unsolvable', model);
    const block = table1Of(model).step_wise;
    const cells: Cell[] = [
      {
        key: `${model}/stepwise_CR`,
        ours: block.cr,
        paper: printedRow.stepwise_CR as number,
        decimals: 1,
      },
      {
        key: `${model}/stepwise_Grade`,
        ours: block.grade,
        paper: printedRow.stepwise_Grade as number,
        decimals: 2,
      },
      ...(['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const).map((error) => ({
        key: `${model}/stepwise_${error.toUpperCase()}`,
        ours: block[error],
        paper: printedRow[`stepwise_${error.toUpperCase()}`] as number,
        decimals: 1,
      })),
    ];
    expect(block.n).toBe(900);
    expect(compare(cells)).toEqual({ mismatches: [], skippedButEqual: [] });
  });

  it('Table 1 tool-extraneous = mean of the pooled halves, E2-H/E2-S under their swapped headers', () => {
    const printedRow = one('table1_holistic_extraneous', model);
    const block = table1Of(model).tool_extraneous;
    const column = (name: string) => printedRow[`extraneous_${name}`] as number;
    const cells: Cell[] = [
      { key: `${model}/extraneous_CR`, ours: block.cr, paper: column('CR'), decimals: 1 },
      { key: `${model}/extraneous_Grade`, ours: block.grade, paper: column('Grade'), decimals: 2 },
      ...(['e1', 'e3', 'e4', 'e5', 'e6'] as const).map((error) => ({
        key: `${model}/extraneous_${error.toUpperCase()}`,
        ours: block[error],
        paper: column(error.toUpperCase()),
        decimals: 1,
      })),
      { key: `${model}/extraneous_E2-S`, ours: block.e2_h, paper: column('E2-S'), decimals: 1 },
      { key: `${model}/extraneous_E2-H`, ours: block.e2_s, paper: column('E2-H'), decimals: 1 },
    ];
    expect(block.n).toBe(
      sum(paper.inferred_denominators.table17_cases_per_level.by_model[model]!) + 750,
    );
    expect(compare(cells)).toEqual({ mismatches: [], skippedButEqual: [] });
    // The printed headers, read literally, do not fit: holistic E2 is not what is printed under "E2-H".
    expect(printed(block.e2_h!, 1)).not.toBe(column('E2-H'));
    if (model === 'Qwen3-VL-32B-Instruct') {
      // the shift: printed E3, E4, E5 are our E4, E5, E6
      expect([block.e4, block.e5, block.e6].map((value) => printed(value!, 1))).toEqual([
        column('E3'),
        column('E4'),
        column('E5'),
      ]);
    }
  });

  it('Table 1 holistic (from Table 12), tool-broken and unsolvable', () => {
    const top = one('table1_holistic_extraneous', model);
    const bottom = one('table1_stepwise_broken_unsolvable', model);
    const row = table1Of(model);
    const cells: Cell[] = [
      {
        key: `${model}/holistic_CR`,
        ours: row.holistic.cr,
        paper: top.holistic_CR as number,
        decimals: 1,
      },
      {
        key: `${model}/holistic_Grade`,
        ours: row.holistic.grade,
        paper: top.holistic_Grade as number,
        decimals: 2,
      },
      ...(['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const).map((error) => ({
        key: `${model}/holistic_${error.toUpperCase()}`,
        ours: row.holistic[error],
        paper: top[`holistic_${error.toUpperCase()}`] as number,
        decimals: 1,
      })),
      ...(['Rp:replace', 'Al:alter', 'Rt:retry', 'Rf:refuse', 'Ot:other'] as const).map((pair) => {
        const [column, behavior] = pair.split(':') as [string, 'replace'];
        return {
          key: `${model}/broken_${column}`,
          ours: row.tool_broken[behavior],
          paper: bottom[`broken_${column}`] as number,
          decimals: 1,
        };
      }),
      ...(['Conf', 'Info', 'Tool', 'Vis'] as const).map((column) => ({
        key: `${model}/unsolvable_${column}`,
        ours: row.unsolvable[column.toLowerCase() as 'conf'],
        paper: bottom[`unsolvable_${column}`] as number,
        decimals: 0,
      })),
    ];
    expect(row.holistic.n).toBe(1109);
    expect(compare(cells)).toEqual({ mismatches: [], skippedButEqual: [] });
  });

  it('Table 2: TC = the sum of ExtUse; CR_B, CR_E and Δ; Table 18 Orig / Red', () => {
    const t2 = one('table2_extraneous_tools', model);
    const t18 = one('table18_extraneous_average', model);
    const ours2 = tables.table2.find((row) => row.model === model)!;
    const ours18 = tables.table18.find((row) => row.model === model)!;
    const extUse = (table: string) => sum(byModel(table, model).map((row) => row.ExtUse as number));
    expect(ours2.holistic.tc).toBe(extUse('table17_holistic_extraneous_by_level'));
    expect(ours2.step_wise.tc).toBe(extUse('table16_stepwise_extraneous_by_level'));
    const cells: Cell[] = [
      {
        key: `${model}/T2 holistic_TC`,
        ours: ours2.holistic.tc,
        paper: t2.holistic_TC as number,
        decimals: 0,
      },
      {
        key: `${model}/T2 stepwise_TC`,
        ours: ours2.step_wise.tc,
        paper: t2.stepwise_TC as number,
        decimals: 0,
      },
      ...(['holistic', 'stepwise'] as const).flatMap((half) => {
        const ours = ours2[half === 'holistic' ? 'holistic' : 'step_wise'];
        const red = ours18[half === 'holistic' ? 'holistic' : 'step_wise'];
        return [
          {
            key: `${model}/T2 ${half}_CR_B`,
            ours: ours.cr_b,
            paper: t2[`${half}_CR_B`] as number,
            decimals: 1,
          },
          {
            key: `${model}/T2 ${half}_CR_E`,
            ours: ours.cr_e,
            paper: t2[`${half}_CR_E`] as number,
            decimals: 1,
          },
          {
            key: `${model}/T2 ${half}_Delta`,
            ours: ours.delta,
            paper: t2[`${half}_Delta`] as number,
            decimals: 1,
          },
          {
            key: `${model}/T18 ${half}_cr_orig`,
            ours: red.cr_orig,
            paper: t18[`${half}_cr_orig`] as number,
            decimals: 2,
          },
          {
            key: `${model}/T18 ${half}_cr_red`,
            ours: red.cr_red,
            paper: t18[`${half}_cr_red`] as number,
            decimals: 2,
          },
          {
            key: `${model}/T18 ${half}_cr_delta`,
            ours: red.cr_delta,
            paper: t18[`${half}_cr_delta`] as number,
            decimals: 2,
          },
          {
            key: `${model}/T18 ${half}_score_red`,
            ours: red.grade_red,
            paper: t18[`${half}_score_red`] as number,
            decimals: 2,
          },
        ];
      }),
    ];
    expect(compare(cells)).toEqual({ mismatches: [], skippedButEqual: [] });
  });

  it('round-trips Tables 14, 16 and 17 per horizon and level', () => {
    const mismatches: string[] = [];
    const check = (
      table: string,
      ours: Record<string, unknown>[],
      keyOf: (row: PaperRow) => string,
      oursKey: (row: Record<string, unknown>) => string,
    ) => {
      for (const row of byModel(table, model)) {
        const mine = ours.find(
          (candidate) => candidate.model === model && oursKey(candidate) === keyOf(row),
        )!;
        for (const [column, ourColumn, decimals] of [
          ['CR', 'cr', 2],
          ['E1', 'e1', 2],
          ['E2', 'e2', 2],
          ['E3', 'e3', 2],
          ['E4', 'e4', 2],
          ['E5', 'e5', 2],
          ['E6', 'e6', 2],
        ] as const) {
          const key = `${table.slice(0, 7)}/${model}/level${row.level}/${column}`;
          if (LEVEL_TYPOS.has(key)) continue;
          if (printed(mine[ourColumn] as number, decimals) !== row[column])
            mismatches.push(`${key}: ${String(mine[ourColumn])} vs ${String(row[column])}`);
        }
        if ('ExtUse' in row && mine.ext_use !== row.ExtUse)
          mismatches.push(`${table}/${keyOf(row)}/ExtUse`);
      }
    };
    check(
      'table14_stepwise_by_horizon',
      tables.table14,
      (row) => String(row.horizon)[0]!,
      (row) => String(row.horizon),
    );
    check(
      'table16_stepwise_extraneous_by_level',
      tables.table16,
      (row) => String(row.level),
      (row) => String(row.level),
    );
    check(
      'table17_holistic_extraneous_by_level',
      tables.table17,
      (row) => String(row.level),
      (row) => String(row.level),
    );
    expect(mismatches).toEqual([]);
  });
});

it('skips exactly the listed cells', () => {
  expect([...SKIP.keys()].sort()).toEqual(
    [
      'Claude Sonnet 4.5/stepwise_Grade',
      'GPT-4o/holistic_E5',
      'Qwen3-VL-235B-A22B-Instruct/holistic_E5',
      'Qwen3-VL-32B-Instruct/extraneous_E3',
      'Qwen3-VL-32B-Instruct/extraneous_E4',
      'Qwen3-VL-32B-Instruct/extraneous_E5',
      'GPT-4o/extraneous_E2-S',
      'Qwen3-VL-30B-A3B-Instruct/extraneous_E2-S',
      'GPT-5/extraneous_E4',
      'Gemini 3 Pro/extraneous_E4',
      'Claude Sonnet 4.5/extraneous_E4',
      'InternVL3.5-241B-A28B/extraneous_E6',
      'Gemini 3 Pro/T2 holistic_Delta',
      'GPT-4o/T2 holistic_Delta',
    ].sort(),
  );
});

it('pooled halves, not level means, print Table 18 "Red" (Claude holistic: 500/746 = 67.02, level mean 67.04)', () => {
  const model = 'Claude Sonnet 4.5';
  const levels = tables.table17.filter((row) => row.model === model);
  const levelMean = sum(levels.map((row) => row.cr!)) / levels.length;
  const pooled = tables.table18.find((row) => row.model === model)!.holistic.cr_red!;
  const printedRed = one('table18_extraneous_average', model).holistic_cr_red;
  expect(sum(levels.map((row) => row.correct))).toBe(500);
  expect(printed(pooled, 2)).toBe(printedRed);
  expect(printed(levelMean, 2)).not.toBe(printedRed);
});
