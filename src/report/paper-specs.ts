/**
 * How each of the paper's tables maps onto ours, for `--compare-paper`: one entry per printed
 * table, keyed by our table id, giving our cell (value, 95 % interval where we have one, n) for
 * every printed column of one printed row. A new table plugs in by adding an entry (Table 3 and
 * its exec scores, Table 4 and the refinement rows) — nothing else changes.
 */
import { wilson, type Interval } from '../metrics/intervals.js';
import type { Tables } from '../metrics/tables.js';

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

/** How one printed table compares with ours. */
export interface PaperTableSpec {
  /** The printed name, "Table 12". */
  table: string;
  /** Keys of `data/paper-tables.json` `tables` it reads (Table 1 is printed in two halves). */
  paperTables: string[];
  /** A label of a printed row beyond its model ("1-5", "2-step", "Self_R+"), or null. */
  rowLabel?: (printed: Record<string, unknown>) => string | null;
  /** The row's key in known_paper_inconsistencies cell ids (`table17/<model>/<key>/<column>`, e.g. `level2`). */
  cellKey?: (printed: Record<string, unknown>) => string;
  /** What the reader must know about this table's cells of one group (which rows of ours, which subset, which judge); stated only when the table is compared. */
  caveats?: (tables: Tables, group: PaperGroup) => string[];
  /** Our cells, keyed by the paper's column, for one group and one printed row; null when we have no such row. */
  ours: (
    tables: Tables,
    group: PaperGroup,
    printed: Record<string, unknown>,
  ) => Record<string, OurCell> | null;
}

type Loose = Record<string, any>;
const E = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
const of = (
  rows: readonly unknown[],
  group: PaperGroup,
  match: (row: Loose) => boolean = () => true,
): Loose | null =>
  (rows as Loose[]).find(
    (row) => row.model === group.model && row.judge === group.judge && match(row),
  ) ?? null;
const rate = (cell: Loose | undefined, key: string, ci?: string): OurCell => ({
  value: cell?.[key] ?? null,
  ci: ci ? (cell?.[ci] ?? null) : null,
  n: cell?.n ?? null,
});
const plain = (value: unknown, n?: number | null): OurCell => ({
  value: typeof value === 'number' ? value : null,
  n: n ?? null,
});
const lower = (value: unknown) => String(value ?? '').toLowerCase();

/** A summary cell's CR, grade and E rates under the paper's column names (`CR`, `Grade` or `Score`, `E1`…). */
function summaryCells(cell: Loose, gradeName = 'Grade'): Record<string, OurCell> {
  const cells: Record<string, OurCell> = {
    CR: rate(cell, 'cr', 'cr_ci'),
    [gradeName]: plain(cell.grade, cell.graded ?? cell.n),
  };
  for (const key of E) cells[key.toUpperCase()] = plain(cell[key], cell.n);
  return cells;
}

function table1(tables: Tables, group: PaperGroup): Record<string, OurCell> | null {
  const row = of(tables.table1, group);
  if (!row) return null;
  const cells: Record<string, OurCell> = {};
  for (const [prefix, block] of [
    ['holistic', row.holistic],
    ['stepwise', row.step_wise],
    ['extraneous', row.tool_extraneous],
  ] as const) {
    cells[`${prefix}_CR`] = rate(block, 'cr', 'cr_ci');
    cells[`${prefix}_Grade`] = plain(block.grade, block.n);
    for (const key of E)
      if (key !== 'e2' || prefix !== 'extraneous')
        cells[`${prefix}_${key.toUpperCase()}`] = plain(block[key], block.n);
  }
  // The paper prints E2-H and E2-S under swapped headers (ARCHITECTURE decision 5).
  cells['extraneous_E2-H'] = plain(row.tool_extraneous.e2_s, row.tool_extraneous.n);
  cells['extraneous_E2-S'] = plain(row.tool_extraneous.e2_h, row.tool_extraneous.n);
  const broken = row.tool_broken;
  for (const [column, key] of [
    ['Rp', 'replace'],
    ['Al', 'alter'],
    ['Rt', 'retry'],
    ['Rf', 'refuse'],
    ['Ot', 'other'],
  ] as const) {
    cells[`broken_${column}`] = {
      value: broken[key],
      ci: broken.n > 0 ? wilson(broken.counts[key], broken.n) : null,
      n: broken.n,
    };
  }
  const unsolvable = row.unsolvable;
  for (const [column, key] of [
    ['Conf', 'conf'],
    ['Info', 'info'],
    ['Tool', 'tool'],
    ['Vis', 'vis'],
  ] as const) {
    cells[`unsolvable_${column}`] = {
      value: unsolvable[key],
      ci: unsolvable.ci_by_type?.[key] ?? null,
      n: unsolvable.n_by_type?.[key] ?? null,
    };
  }
  return cells;
}

function half(
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

function table4(
  tables: Tables,
  group: PaperGroup,
  printed: Record<string, unknown>,
): Record<string, OurCell> | null {
  const method = (row: Loose) =>
    row.mode === printed.refiner &&
    row.taxonomy === printed.taxonomy_guided &&
    (row.rounds ?? 1) === 1;
  const holistic = of(tables.table4, group, (row) => method(row) && row.regime === 'holistic');
  // The paper's step-wise column is next-1 only (official SelfRefinementEvaluator extends Next1).
  const stepWise = of(
    tables.table4,
    group,
    (row) => method(row) && row.regime === 'step_wise_next1',
  );
  if (!holistic && !stepWise) return null;
  const cells: Record<string, OurCell> = {};
  for (const [prefix, row] of [
    ['holistic', holistic],
    ['stepwise', stepWise],
  ] as const) {
    if (!row) continue;
    cells[`${prefix}_base`] = { value: row.base_cr, ci: row.base_ci, n: row.n };
    cells[`${prefix}_refined`] = { value: row.refined_cr, ci: row.refined_ci, n: row.n };
    cells[`${prefix}_delta`] = plain(row.delta, row.n);
  }
  return cells;
}

const sourcesText = (sources: Record<string, number>) =>
  Object.entries(sources)
    .map(([source, count]) => `${source} ${count}`)
    .join(', ');

/** Table 4's caveats: which of our rows are compared (next-1 only), on which cases, under which judge. */
function table4Caveats(tables: Tables, group: PaperGroup): string[] {
  const rows = (tables.table4 as Loose[]).filter(
    (row) => row.model === group.model && row.judge === group.judge && (row.rounds ?? 1) === 1,
  );
  if (rows.length === 0) return [];
  const compared = rows.filter(
    (row) => row.regime === 'holistic' || row.regime === 'step_wise_next1',
  );
  const left = rows.filter((row) => /^step_wise_next[2-9]/.test(String(row.regime)));
  const subset = compared.map(
    (row) =>
      `${row.regime} ${row.mode}${row.taxonomy ? '+' : '−'} n=${row.n} (${sourcesText(row.sources ?? {})})`,
  );
  const caveats = [
    `Table 4: the paper's step-wise column is next-1 only (the official refinement evaluator is next-1), so it is set beside our step_wise_next1 row, and the holistic column beside our holistic row. The paper's subset is 150 cases per regime (25 per source, 5 per real-traffic subset, in file order); ours: ${subset.join('; ') || 'none'}.`,
  ];
  if (left.length > 0)
    caveats.push(
      `Table 4: our ${[...new Set(left.map((row) => row.regime))].join(', ')} rows (n=${left.map((row) => row.n).join('/')}) have no printed counterpart and are not compared.`,
    );
  if (
    !group.judge
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .includes('gpt5')
  )
    caveats.push(
      `Table 4: judged by ${group.judge}; the paper's refinement runs were judged by GPT-5 (the official refinement configs), not by the Gemini 3 Pro of its other tables.`,
    );
  return caveats;
}

/** Table 5's caveat: C_com is over the cases every compared model solved, so with one model it is C_pass. */
function table5Caveats(tables: Tables, group: PaperGroup): string[] {
  const models = new Set(
    (tables.table5 as Loose[])
      .filter((row) => row.judge === group.judge && !String(row.model).startsWith('baseline:'))
      .map((row) => row.model),
  );
  return models.size <= 1
    ? [
        `Table 5: C_com is the mean cost over the cases every compared model solved; with ${group.model} the only model here, that set is its own solved cases, so its C_com equals its C_pass. The paper's C_com is over the cases all five proprietary models solved.`,
      ]
    : [];
}

/** Every paper table `--compare-paper` compares, keyed by our table id. */
export const PAPER_TABLE_SPECS: Record<string, PaperTableSpec> = {
  table1: {
    table: 'Table 1',
    paperTables: ['table1_holistic_extraneous', 'table1_stepwise_broken_unsolvable'],
    ours: table1,
  },
  table2: {
    table: 'Table 2',
    paperTables: ['table2_extraneous_tools'],
    ours: (tables, group) => {
      const row = of(tables.table2, group);
      const names = { base: 'CR_B', variants: 'CR_E', delta: 'Delta', tc: 'TC' };
      return row
        ? { ...half('holistic', row.holistic, names), ...half('stepwise', row.step_wise, names) }
        : null;
    },
  },
  table4: {
    table: 'Table 4',
    paperTables: ['table4_refinement'],
    rowLabel: (printed) => String(printed.method ?? ''),
    caveats: table4Caveats,
    ours: table4,
  },
  table5: {
    table: 'Table 5',
    paperTables: ['table5_efficiency'],
    caveats: table5Caveats,
    ours: (tables, group) => {
      const row = of(tables.table5, group);
      return row
        ? {
            CR: rate(row, 'cr', 'cr_ci'),
            Grade: plain(row.grade, row.n),
            C_all: plain(row.c_all, row.costed),
            C_pass: plain(row.c_pass, row.costed_pass),
            C_com: plain(row.c_com, row.costed_com),
          }
        : null;
    },
  },
  table12: {
    table: 'Table 12',
    paperTables: ['table12_holistic_by_step_range'],
    rowLabel: (printed) => `${printed.steps_range} steps`,
    ours: (tables, group, printed) => {
      const row = of(
        tables.table12,
        group,
        (candidate) => candidate.steps_range === printed.steps_range,
      );
      if (!row) return null;
      return {
        CR: rate(row, 'cr', 'cr_ci'),
        Grade: plain(row.grade, row.n),
        ...Object.fromEntries(
          E.map((key) => [`${key.toUpperCase()}_n`, plain(row[`${key}_n`], row.n)]),
        ),
      };
    },
  },
  table13: {
    table: 'Table 13',
    paperTables: ['table13_holistic_by_modality'],
    rowLabel: (printed) => String(printed.modality),
    ours: (tables, group, printed) => {
      const row = of(
        tables.table13,
        group,
        (candidate) => lower(candidate.modality) === lower(printed.modality),
      );
      return row ? summaryCells(row) : null;
    },
  },
  table14: {
    table: 'Table 14',
    paperTables: ['table14_stepwise_by_horizon'],
    rowLabel: (printed) => String(printed.horizon),
    ours: (tables, group, printed) => {
      const row = of(
        tables.table14,
        group,
        (candidate) => `${candidate.horizon}-step` === printed.horizon,
      );
      return row ? summaryCells(row, 'Score') : null;
    },
  },
  table15: {
    table: 'Table 15',
    paperTables: ['table15_stepwise_by_stage'],
    rowLabel: (printed) => String(printed.stage),
    ours: (tables, group, printed) => {
      const row = of(
        tables.table15,
        group,
        (candidate) => lower(candidate.stage) === lower(printed.stage),
      );
      return row ? summaryCells(row, 'Score') : null;
    },
  },
  ...Object.fromEntries(
    (
      [
        ['table16', 'Table 16', 'table16_stepwise_extraneous_by_level'],
        ['table17', 'Table 17', 'table17_holistic_extraneous_by_level'],
      ] as const
    ).map(([id, table, key]): [string, PaperTableSpec] => [
      id,
      {
        table,
        paperTables: [key],
        rowLabel: (printed) => `level ${printed.level}`,
        cellKey: (printed) => `level${printed.level}`,
        ours: (tables, group, printed) => {
          const row = of(tables[id], group, (candidate) => candidate.level === printed.level);
          return row ? { ExtUse: plain(row.ext_use, row.n), ...summaryCells(row) } : null;
        },
      },
    ]),
  ),
  table18: {
    table: 'Table 18',
    paperTables: ['table18_extraneous_average'],
    ours: (tables, group) => {
      const row = of(tables.table18, group);
      const names = {
        base: 'cr_orig',
        variants: 'cr_red',
        delta: 'cr_delta',
        grade: ['score_orig', 'score_red', 'score_delta'] as [string, string, string],
      };
      return row
        ? { ...half('holistic', row.holistic, names), ...half('stepwise', row.step_wise, names) }
        : null;
    },
  },
};
