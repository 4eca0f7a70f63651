/**
 * The paper's published numbers beside ours (`--compare-paper`): the zod schema of
 * data/paper-tables.json (the part used here), model-name matching through the paper's aliases,
 * and a cell-by-cell comparison of Tables 1 and 2 at the paper's printed decimals, with the
 * paper's own known inconsistencies marked instead of counted as mismatches; and Table 4 per
 * refinement method.
 */
import { z } from 'zod';
import type { Tables } from '../metrics/tables.js';
import { roundTo } from './numbers.js';

const PaperTableSchema = z
  .object({
    columns: z.array(z.string()),
    decimals: z.record(z.string(), z.union([z.number(), z.array(z.number())])),
    rows: z.array(z.record(z.string(), z.unknown())),
  })
  .loose();

/** The part of data/paper-tables.json this module reads. */
export const PaperTablesSchema = z
  .object({
    source: z.string().optional(),
    model_aliases: z.record(z.string(), z.string()),
    models: z.object({ list: z.array(z.object({ name: z.string(), api_model_id: z.string().nullish(), url: z.string().nullish() }).loose()) }).loose(),
    known_paper_inconsistencies: z.array(z.object({ id: z.string(), tables: z.array(z.number()), description: z.string(), cells: z.array(z.string()) }).loose()),
    tables: z
      .object({
        table1_holistic_extraneous: PaperTableSchema,
        table1_stepwise_broken_unsolvable: PaperTableSchema,
        table2_extraneous_tools: PaperTableSchema,
        table4_refinement: PaperTableSchema,
      })
      .loose(),
  })
  .loose();
export type PaperTables = z.infer<typeof PaperTablesSchema>;

/** One compared cell: ours unrounded and at the paper's decimals, the paper's printed value, and why a mismatch is expected. */
export interface PaperCell {
  table: 'Table 1' | 'Table 2' | 'Table 4';
  /** The paper's column key, e.g. `stepwise_CR`. */
  column: string;
  ours: number | null;
  oursRounded: number | null;
  paper: number | null;
  decimals: number;
  /** Both present and equal at the paper's decimals. */
  matches: boolean;
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
  /** Mismatches in cells the paper itself gets wrong (not counted in `mismatched`). Cells we have no value for are left out. */
  explained: number;
}

/** The comparison for a whole report. */
export interface PaperComparison {
  source: string;
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
  for (const [alias, canonical] of Object.entries(paper.model_aliases)) names.set(normalizeModelName(alias), canonical);
  for (const model of paper.models.list) {
    names.set(normalizeModelName(model.name), paper.model_aliases[model.name] ?? model.name);
    if (model.api_model_id) names.set(normalizeModelName(model.api_model_id), paper.model_aliases[model.name] ?? model.name);
    const repository = model.url?.match(/huggingface\.co\/[^/]+\/([^/?#]+)/)?.[1];
    if (repository) names.set(normalizeModelName(repository), paper.model_aliases[model.name] ?? model.name);
  }
  const bare = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec;
  const candidates = [bare, bare.split('/').pop() ?? bare, bare.replace(/-\d{8}$/, ''), bare.replace(/-(preview|latest)$/i, '')];
  for (const candidate of candidates) {
    const found = names.get(normalizeModelName(candidate));
    if (found) return found;
  }
  return null;
}

type Table1Row = Tables['table1'][number];
type Table2Row = Tables['table2'][number];
type Getter<T> = (row: T) => number | null | undefined;

const E = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6'] as const;
const lower = (key: string) => key.toLowerCase() as 'e1';

/** Paper Table 1 columns → our Table 1 values. The printed E2-H/E2-S headers are swapped (ARCHITECTURE decision 5). */
const TABLE1: Record<string, Getter<Table1Row>> = {
  holistic_CR: (row) => row.holistic.cr,
  holistic_Grade: (row) => row.holistic.grade,
  ...Object.fromEntries(E.map((key) => [`holistic_${key}`, (row: Table1Row) => row.holistic[lower(key)]])),
  extraneous_CR: (row) => row.tool_extraneous.cr,
  extraneous_Grade: (row) => row.tool_extraneous.grade,
  extraneous_E1: (row) => row.tool_extraneous.e1,
  'extraneous_E2-H': (row) => row.tool_extraneous.e2_s,
  'extraneous_E2-S': (row) => row.tool_extraneous.e2_h,
  ...Object.fromEntries(['E3', 'E4', 'E5', 'E6'].map((key) => [`extraneous_${key}`, (row: Table1Row) => row.tool_extraneous[lower(key)]])),
  stepwise_CR: (row) => row.step_wise.cr,
  stepwise_Grade: (row) => row.step_wise.grade,
  ...Object.fromEntries(E.map((key) => [`stepwise_${key}`, (row: Table1Row) => row.step_wise[lower(key)]])),
  broken_Rp: (row) => row.tool_broken.replace,
  broken_Al: (row) => row.tool_broken.alter,
  broken_Rt: (row) => row.tool_broken.retry,
  broken_Rf: (row) => row.tool_broken.refuse,
  broken_Ot: (row) => row.tool_broken.other,
  unsolvable_Conf: (row) => row.unsolvable.conf,
  unsolvable_Info: (row) => row.unsolvable.info,
  unsolvable_Tool: (row) => row.unsolvable.tool,
  unsolvable_Vis: (row) => row.unsolvable.vis,
};

const TABLE2: Record<string, Getter<Table2Row>> = {
  holistic_TC: (row) => row.holistic.tc,
  holistic_CR_B: (row) => row.holistic.cr_b,
  holistic_CR_E: (row) => row.holistic.cr_e,
  holistic_Delta: (row) => row.holistic.delta,
  stepwise_TC: (row) => row.step_wise.tc,
  stepwise_CR_B: (row) => row.step_wise.cr_b,
  stepwise_CR_E: (row) => row.step_wise.cr_e,
  stepwise_Delta: (row) => row.step_wise.delta,
};

/** Columns a model-level inconsistency entry covers, by id (entries naming `Model/column` cover that cell only). */
const INCONSISTENCY_COLUMNS: Record<string, string[]> = {
  table1_extraneous_E2H_E2S_swapped: ['extraneous_E2-H', 'extraneous_E2-S'],
  table1_extraneous_E3_E6_shifted: ['extraneous_E3', 'extraneous_E4', 'extraneous_E5', 'extraneous_E6'],
};

/** The id of the known paper inconsistency touching a Table 1/2 cell of a model, or null. */
export function inconsistencyOf(paper: PaperTables, table: number, model: string, column: string): string | null {
  for (const entry of paper.known_paper_inconsistencies) {
    if (!entry.tables.includes(table)) continue;
    if (entry.cells.includes(`${model}/${column}`)) return entry.id;
    if (entry.cells.includes(model) && INCONSISTENCY_COLUMNS[entry.id]?.includes(column)) return entry.id;
  }
  return null;
}

function decimalsOf(value: number | number[] | undefined): number {
  return Array.isArray(value) ? (value[0] ?? 1) : (value ?? 1);
}

function compareRow<T>(table: 'Table 1' | 'Table 2', getters: Record<string, Getter<T>>, ours: T | undefined, printed: Record<string, unknown>, decimals: Record<string, number | number[]>, paper: PaperTables, model: string): PaperCell[] {
  if (!ours) return [];
  return Object.entries(getters).map(([column, get]) => {
    const value = get(ours) ?? null;
    const places = decimalsOf(decimals[column]);
    const oursRounded = value === null ? null : roundTo(value, places);
    const paperValue = typeof printed[column] === 'number' ? (printed[column] as number) : null;
    const swapped = column === 'extraneous_E2-H' || column === 'extraneous_E2-S';
    const known = inconsistencyOf(paper, table === 'Table 1' ? 1 : 2, model, column);
    return {
      table,
      column,
      ours: value,
      oursRounded,
      paper: paperValue,
      decimals: places,
      matches: oursRounded !== null && paperValue !== null && Math.abs(oursRounded - paperValue) < 10 ** -(places + 3),
      note: known ?? (swapped ? 'table1_extraneous_E2H_E2S_swapped' : null),
    };
  });
}

type Table4Row = Tables['table4'][number];

const COLUMNS = [
  ['holistic', 'holistic_base', 'base_cr'],
  ['holistic', 'holistic_refined', 'refined_cr'],
  ['holistic', 'holistic_delta', 'delta'],
  ['step_wise', 'stepwise_base', 'base_cr'],
  ['step_wise', 'stepwise_refined', 'refined_cr'],
  ['step_wise', 'stepwise_delta', 'delta'],
] as const;

/**
 * Table 4 against the paper's: for each of our refinement methods of a model the paper reports (one
 * round, as the paper ran it), base, refined and Δ of both regimes beside the printed row of the
 * same model and method. The compared cells of one (model, judge): `paperRows` are the paper's Table 4 rows of the matched model. */
function table4Cells(ours: readonly Table4Row[], paperRows: readonly Record<string, unknown>[], decimals: Record<string, number | number[]>): PaperCell[] {
  const cells: PaperCell[] = [];
  for (const printed of paperRows) {
    const method = String(printed.method ?? '');
    for (const [regime, column, key] of COLUMNS) {
      const row = ours.find((candidate) => candidate.regime === regime && candidate.mode === printed.refiner && candidate.taxonomy === printed.taxonomy_guided && candidate.rounds === 1);
      const value = row ? row[key] : null;
      const places = typeof decimals[column] === 'number' ? (decimals[column] as number) : 2;
      const paper = typeof printed[column] === 'number' ? (printed[column] as number) : null;
      const oursRounded = value === null ? null : roundTo(value, places);
      cells.push({ table: 'Table 4', column: `${method} ${column}`, ours: value, oursRounded, paper, decimals: places, matches: oursRounded !== null && paper !== null && Math.abs(oursRounded - paper) < 10 ** -(places + 3), note: null });
    }
  }
  return cells;
}

const SWAP_NOTE = 'table1_extraneous_E2H_E2S_swapped';

/** The (model, judge) groups to compare: the given ones, then any that only Table 4 holds (a refined run's report). */
function withRefinedGroups(groups: readonly { model: string; judge: string }[], table4: Pick<Tables, 'table4'>['table4'] | undefined): { model: string; judge: string }[] {
  const all = [...groups];
  for (const row of table4 ?? []) if (!all.some((group) => group.model === row.model && group.judge === row.judge)) all.push({ model: row.model, judge: row.judge });
  return all;
}

/** Compares every group whose model the paper reports (Tables 1, 2 and 4, at the paper's decimals). */
export function comparePaper(tables: Pick<Tables, 'table1' | 'table2'> & Partial<Pick<Tables, 'table4'>>, given: readonly { model: string; judge: string }[], paper: PaperTables): PaperComparison {
  const groups = withRefinedGroups(given, tables.table4);
  const canonical = (name: unknown) => (typeof name === 'string' ? (paper.model_aliases[name] ?? name) : '');
  const t1a = paper.tables.table1_holistic_extraneous;
  const t1b = paper.tables.table1_stepwise_broken_unsolvable;
  const t2 = paper.tables.table2_extraneous_tools;
  const models: PaperModelComparison[] = [];
  const unmatched = new Set<string>();
  for (const group of groups) {
    const paperModel = matchPaperModel(group.model, paper);
    if (!paperModel) {
      unmatched.add(group.model);
      continue;
    }
    const find = (rows: Record<string, unknown>[]) => rows.find((row) => canonical(row.model) === paperModel) ?? {};
    const t4 = paper.tables.table4_refinement;
    const ours4 = (tables.table4 ?? []).filter((row) => row.model === group.model && row.judge === group.judge);
    const ours1 = tables.table1.find((row) => row.model === group.model && row.judge === group.judge);
    const ours2 = tables.table2.find((row) => row.model === group.model && row.judge === group.judge);
    const cells = [
      ...compareRow('Table 1', TABLE1, ours1, { ...find(t1a.rows), ...find(t1b.rows) }, { ...t1a.decimals, ...t1b.decimals }, paper, paperModel),
      ...compareRow('Table 2', TABLE2, ours2, find(t2.rows), t2.decimals, paper, paperModel),
      ...table4Cells(ours4, t4.rows.filter((row) => canonical(row.model) === paperModel), t4.decimals),
    ].filter((cell) => cell.ours !== null && cell.paper !== null);
    const explained = cells.filter((cell) => !cell.matches && cell.note !== null && cell.note !== SWAP_NOTE).length;
    const matched = cells.filter((cell) => cell.matches).length;
    models.push({ model: group.model, judge: group.judge, paperModel, cells, matched, mismatched: cells.length - matched - explained, explained });
  }
  return { source: paper.source ?? 'paper', models, unmatched: [...unmatched] };
}
