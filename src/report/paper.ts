/**
 * The paper's published numbers beside ours (`--compare-paper`): the zod schema of
 * data/paper-tables.json (the part used here), model-name matching through the paper's aliases,
 * and a cell-by-cell comparison of every printed table the run fills (`paper-specs.ts`: Tables
 * 1, 2, 4, 5, 12–18), each cell judged twice: equal at the paper's printed decimals, and inside the
 * 95 % interval of ours. The paper's own known inconsistencies are marked instead of counted, and
 * caveats (other data, another judge, small n) are stated with the comparison. docs/reports.md.
 */
import { z } from 'zod';
import type { Interval } from '../metrics/intervals.js';
import type { Tables } from '../metrics/tables.js';
import { PAPER_TABLE_SPECS, type PaperGroup } from './paper-specs.js';
import { roundTo } from './numbers.js';

const PaperTableSchema = z
  .object({
    columns: z.array(z.string()),
    decimals: z.record(z.string(), z.union([z.number(), z.array(z.number())])).nullish(),
    rows: z.array(z.record(z.string(), z.unknown())),
  })
  .loose();

/** The part of data/paper-tables.json this module reads. */
export const PaperTablesSchema = z
  .object({
    source: z.string().optional(),
    model_aliases: z.record(z.string(), z.string()),
    models: z
      .object({
        list: z.array(
          z
            .object({
              name: z.string(),
              api_model_id: z.string().nullish(),
              url: z.string().nullish(),
            })
            .loose(),
        ),
      })
      .loose(),
    known_paper_inconsistencies: z.array(
      z
        .object({
          id: z.string(),
          tables: z.array(z.number()),
          description: z.string(),
          cells: z.array(z.string()),
        })
        .loose(),
    ),
    splits: z.record(z.string(), z.unknown()).optional(),
    tables: z.record(z.string(), PaperTableSchema),
  })
  .loose();
export type PaperTables = z.infer<typeof PaperTablesSchema>;

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

/** Lower-case letters and digits only: "Qwen3VL-32B-In." and "qwen3-vl-32b" meet as "qwen3vl32b". */
export function normalizeModelName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The paper's canonical model name for one of our model specs (`provider:model`), or null. */
export function matchPaperModel(spec: string, paper: PaperTables): string | null {
  const names = new Map<string, string>();
  for (const [alias, canonical] of Object.entries(paper.model_aliases))
    names.set(normalizeModelName(alias), canonical);
  for (const model of paper.models.list) {
    names.set(normalizeModelName(model.name), paper.model_aliases[model.name] ?? model.name);
    if (model.api_model_id)
      names.set(
        normalizeModelName(model.api_model_id),
        paper.model_aliases[model.name] ?? model.name,
      );
    const repository = model.url?.match(/huggingface\.co\/[^/]+\/([^/?#]+)/)?.[1];
    if (repository)
      names.set(normalizeModelName(repository), paper.model_aliases[model.name] ?? model.name);
  }
  const bare = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec;
  const candidates = [
    bare,
    bare.split('/').pop() ?? bare,
    bare.replace(/-\d{8}$/, ''),
    bare.replace(/-(preview|latest)$/i, ''),
  ];
  for (const candidate of candidates) {
    const found = names.get(normalizeModelName(candidate));
    if (found) return found;
  }
  return null;
}

/** Columns a model-level inconsistency entry covers, by id (entries naming `Model/column` cover that cell only). */
const INCONSISTENCY_COLUMNS: Record<string, string[]> = {
  table1_extraneous_E2H_E2S_swapped: ['extraneous_E2-H', 'extraneous_E2-S'],
  table1_extraneous_E3_E6_shifted: [
    'extraneous_E3',
    'extraneous_E4',
    'extraneous_E5',
    'extraneous_E6',
  ],
};

/** The id of the known paper inconsistency touching a Table 1/2 cell of a model, or null. */
export function inconsistencyOf(
  paper: PaperTables,
  table: number,
  model: string,
  column: string,
): string | null {
  for (const entry of paper.known_paper_inconsistencies) {
    if (!entry.tables.includes(table)) continue;
    if (entry.cells.includes(`${model}/${column}`)) return entry.id;
    if (entry.cells.includes(model) && INCONSISTENCY_COLUMNS[entry.id]?.includes(column))
      return entry.id;
  }
  return null;
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
