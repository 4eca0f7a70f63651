/**
 * The paper's published numbers beside ours (`--compare-paper`; the data/paper-tables.json schema
 * and model-name matching are `paper-tables.ts`): a cell-by-cell comparison of every printed table
 * the run fills (`paper-specs.ts`: Tables 1, 2, 4, 5, 12–18), each cell judged twice: equal at the
 * paper's printed decimals, and inside the 95 % interval of ours. The paper's own known
 * inconsistencies are marked instead of counted, and caveats (other data, another judge, small n)
 * are stated with the comparison. docs/reports.md.
 */
import type { Interval } from '../metrics/intervals.js';
import type { Tables } from '../metrics/tables.js';
import type { PaperGroup } from './paper-cells.js';
import { PAPER_TABLE_SPECS } from './paper-specs.js';
import {
  inconsistencyOf,
  matchPaperModel,
  normalizeModelName,
  type PaperTables,
} from './paper-tables.js';
import { roundTo } from './numbers.js';

export {
  inconsistencyOf,
  matchPaperModel,
  normalizeModelName,
  PaperTablesSchema,
  type PaperTables,
} from './paper-tables.js';

/**
 * One compared cell: ours unrounded and at the paper's decimals, our interval and n, the paper's
 * printed value, and both verdicts.
 */
export interface PaperCell {
  /** The printed table, "Table 1" … "Table 18". */
  table: string;
  /** The printed row beyond the model ("1-5 steps", "2-step", "Self_R+"), or null. */
  row: string | null;
  /** The paper's column key, e.g. `stepwise_CR`. */
  column: string;
  ours: number | null;
  oursRounded: number | null;
  /** 95 % interval of our rate (percent); null where we compute none. */
  ci: Interval | null;
  /** The cases behind our cell. */
  n: number | null;
  paper: number | null;
  decimals: number;
  /** Both present and equal at the paper's decimals. */
  matches: boolean;
  /** The paper's value lies inside our 95 % interval; null without an interval. */
  withinCi: boolean | null;
  /** Id of a known paper inconsistency affecting the cell, or another explanation; null when none. */
  note: string | null;
}

/** The comparison for one of our (model, judge) groups whose model the paper reports. */
export interface PaperModelComparison {
  model: string;
  judge: string;
  paperModel: string;
  cells: PaperCell[];
  matched: number;
  mismatched: number;
  /**
   * Mismatches in cells the paper itself gets wrong (not counted in `mismatched`). Cells we have no
   * value for are left out.
   */
  explained: number;
  /** Cells with an interval, and how many of them hold the paper's value. */
  withCi: number;
  withinCi: number;
  /** What makes this group's cells differ from the paper's beyond chance (another judge). */
  caveats: string[];
}

/** The comparison for a whole report. */
export interface PaperComparison {
  source: string;
  /** What holds for every cell: other data than the paper's release, how to read the two verdicts. */
  caveats: string[];
  models: PaperModelComparison[];
  /** Our models that match no paper model. */
  unmatched: string[];
}

function decimalsOf(value: number | number[] | undefined): number {
  return Array.isArray(value) ? (value[0] ?? 1) : (value ?? 1);
}

const SWAP_NOTE = 'table1_extraneous_E2H_E2S_swapped';
const tableNumber = (table: string) => Number(/\d+/.exec(table)?.[0] ?? 0);

/** The paper's counts per split of its release (data/paper-tables.json `splits`), under our split names. */
const RELEASE_COUNTS: Record<string, string> = {
  holistic_planning: 'holistic',
  step_wise_planning: 'stepwise',
  holistic_tool_extraneous: 'tool_extraneous_holistic',
  step_wise_tool_extraneous: 'tool_extraneous_stepwise',
  step_wise_tool_broken: 'tool_broken',
  holistic_unsolvable: 'unsolvable',
};

/**
 * Caveats of the whole comparison: other data than the release (per split, by case count), and how
 * to read the verdicts.
 */
export function comparisonCaveats(
  paper: PaperTables,
  casesPerSplit: Readonly<Record<string, number>>,
): string[] {
  const caveats: string[] = [];
  const splits = (paper.splits ?? {}) as Record<string, unknown>;
  const differing = Object.entries(casesPerSplit).flatMap(([split, count]) => {
    const released = splits[RELEASE_COUNTS[split] ?? ''];
    return typeof released === 'number' && released !== count
      ? [`${split}: ${count} case(s) here, ${released} in the release`]
      : [];
  });
  if (differing.length > 0)
    caveats.push(
      `The data is not the paper's release (${differing.join('; ')}): every cell describes other cases, so an exact match is a coincidence and a difference is expected.`,
    );
  caveats.push(
    'Two verdicts per cell: "exact" = ours rounded to the paper\'s printed decimals equals the printed value; "within CI" = the printed value lies inside the 95 % Wilson interval of our rate (rates only; n is our cases behind the cell). A printed value outside our interval is unlikely to come from the same rate on cases like ours.',
  );
  return caveats;
}

/** Caveats of one group: a judge other than the paper's. */
function groupCaveats(judge: string): string[] {
  if (judge === 'rules')
    return [
      "Judged by the structural rules judge (docs/rules-judge.md), not the paper's LLM judge: its rates are not the paper's and are not expected to match.",
    ];
  if (!normalizeModelName(judge).includes('gemini3pro'))
    return [
      `Judged by ${judge}; the paper's tables were judged by Gemini 3 Pro with the reference (Table 4 aside: see its caveat; Table 7 shows judges differ by up to 14 points of agreement).`,
    ];
  return [];
}

/** The caveats of each table spec that has compared cells for the group. */
function tableCaveats(tables: Tables, group: PaperGroup, cells: readonly PaperCell[]): string[] {
  return Object.values(PAPER_TABLE_SPECS).flatMap((spec) =>
    spec.caveats && cells.some((cell) => cell.table === spec.table)
      ? spec.caveats(tables, group)
      : [],
  );
}

function cellOf(
  spec: { table: string },
  column: string,
  ours: { value: number | null; ci?: Interval | null; n?: number | null },
  printed: number,
  places: number,
  row: string | null,
  note: string | null,
): PaperCell {
  const oursRounded = ours.value === null ? null : roundTo(ours.value, places);
  const ci = ours.ci ?? null;
  return {
    table: spec.table,
    row,
    column,
    ours: ours.value,
    oursRounded,
    ci,
    n: ours.n ?? null,
    paper: printed,
    decimals: places,
    matches: oursRounded !== null && Math.abs(oursRounded - printed) < 10 ** -(places + 3),
    withinCi: ci ? printed >= ci.lo - 1e-9 && printed <= ci.hi + 1e-9 : null,
    note,
  };
}

/** Every compared cell of one group and one paper model, over every table spec. */
function cellsOf(
  tables: Tables,
  group: PaperGroup,
  paperModel: string,
  paper: PaperTables,
): PaperCell[] {
  const canonical = (name: unknown) =>
    typeof name === 'string' ? (paper.model_aliases[name] ?? name) : '';
  const cells: PaperCell[] = [];
  for (const [id, spec] of Object.entries(PAPER_TABLE_SPECS)) {
    for (const key of spec.paperTables) {
      const printedTable = paper.tables[key];
      if (!printedTable) continue;
      for (const printed of printedTable.rows.filter(
        (row) => canonical(row.model) === paperModel,
      )) {
        const ours = spec.ours(tables, group, printed);
        if (!ours) continue;
        const row = spec.rowLabel?.(printed) ?? null;
        for (const column of printedTable.columns) {
          const value = printed[column];
          const mine = ours[column];
          if (typeof value !== 'number' || !mine || mine.value === null) continue;
          const swapped = column === 'extraneous_E2-H' || column === 'extraneous_E2-S';
          const cellId = spec.cellKey
            ? `${id}/${paperModel}/${spec.cellKey(printed)}/${column}`
            : null;
          const byCell = cellId
            ? (paper.known_paper_inconsistencies.find((entry) => entry.cells.includes(cellId))
                ?.id ?? null)
            : null;
          const note =
            byCell ??
            inconsistencyOf(paper, tableNumber(spec.table), paperModel, column) ??
            (swapped ? SWAP_NOTE : null);
          cells.push(
            cellOf(
              spec,
              column,
              mine,
              value,
              decimalsOf(printedTable.decimals?.[column]),
              row,
              note,
            ),
          );
        }
      }
    }
  }
  return cells;
}

/** The (model, judge) groups to compare: the given ones, then any that only Table 4 holds (a refined run's report). */
function withRefinedGroups(
  groups: readonly PaperGroup[],
  table4: Tables['table4'] | undefined,
): PaperGroup[] {
  const all = [...groups];
  for (const row of table4 ?? [])
    if (!all.some((group) => group.model === row.model && group.judge === row.judge))
      all.push({ model: row.model, judge: row.judge });
  return all;
}

/** Compares every group whose model the paper reports, over every printed table the run fills. */
export function comparePaper(
  tables: Tables,
  given: readonly PaperGroup[],
  paper: PaperTables,
  casesPerSplit: Readonly<Record<string, number>> = {},
): PaperComparison {
  const groups = withRefinedGroups(given, tables.table4);
  const models: PaperModelComparison[] = [];
  const unmatched = new Set<string>();
  for (const group of groups) {
    const paperModel = matchPaperModel(group.model, paper);
    if (!paperModel) {
      unmatched.add(group.model);
      continue;
    }
    const cells = cellsOf(tables, group, paperModel, paper);
    const explained = cells.filter(
      (cell) => !cell.matches && cell.note !== null && cell.note !== SWAP_NOTE,
    ).length;
    const matched = cells.filter((cell) => cell.matches).length;
    const withCi = cells.filter((cell) => cell.withinCi !== null);
    models.push({
      model: group.model,
      judge: group.judge,
      paperModel,
      cells,
      matched,
      mismatched: cells.length - matched - explained,
      explained,
      withCi: withCi.length,
      withinCi: withCi.filter((cell) => cell.withinCi).length,
      caveats: [...groupCaveats(group.judge), ...tableCaveats(tables, group, cells)],
    });
  }
  return {
    source: paper.source ?? 'paper',
    caveats: comparisonCaveats(paper, casesPerSplit),
    models,
    unmatched: [...unmatched],
  };
}
