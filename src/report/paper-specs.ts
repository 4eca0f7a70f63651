/**
 * How each of the paper's tables maps onto ours, for `--compare-paper`: one entry per printed
 * table, keyed by our table id, giving our cell (value, 95 % interval where we have one, n) for
 * every printed column of one printed row. A new table plugs in by adding an entry (Table 3 and
 * its exec scores, Table 4 and the refinement rows) — nothing else changes.
 */
import { wilson } from '../metrics/intervals.js';
import type { Tables } from '../metrics/tables.js';
import { table4Caveats, table5Caveats } from './paper-caveats.js';
import {
  E,
  half,
  lower,
  of,
  plain,
  rate,
  summaryCells,
  type Loose,
  type OurCell,
  type PaperGroup,
} from './paper-cells.js';

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

/** Table 1: three blocks of CR, grade, E rates; the broken tool's behaviours; unsolvable types. */
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

/** Table 4: one refinement method's holistic and next-1 step-wise base, refined CR and delta. */
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
