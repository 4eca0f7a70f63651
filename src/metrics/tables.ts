/**
 * Every paper table this set of rows can fill, as plain JSON-serialisable data (no rendering):
 * one entry per (tested model, judge) in first-seen order. Refined rows (`refinement` set) feed
 * only Table 4; every other table reads the unrefined rows. Definitions: docs/metrics.md.
 */
import { RELEASED_SPLITS, SPLITS, type SplitName } from '../dataset/case.js';
import { byModality, byHorizon, byStage, byStepRange } from './breakdowns.js';
import { commonlySolved, efficiencyRow, isBaseline } from './efficiency.js';
import { errorDistribution } from './error-incidence.js';
import { baseVsExtraneous, byDistractorLevel } from './extraneous.js';
import { comparePaired } from './paired.js';
import { overCorrections, refinementRows } from './refinement.js';
import { repeatStats } from './repeats.js';
import type { ResultRow } from './result-row.js';
import { ofSplit, table1Row } from './table1.js';

/** The rows of one tested model under one judge. */
export interface ModelJudgeGroup {
  model: string;
  judge: string;
  rows: ResultRow[];
}

/** Groups rows by (tested model, judge), in the order each pair first appears. */
export function groupByModelJudge(rows: readonly ResultRow[]): ModelJudgeGroup[] {
  const groups = new Map<string, ModelJudgeGroup>();
  for (const row of rows) {
    const key = JSON.stringify([row.model, row.judge]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { model: row.model, judge: row.judge, rows: [] }));
    group.rows.push(row);
  }
  return [...groups.values()];
}

/** Options of `computeTables`. */
export interface TablesOptions {
  /** Pairwise McNemar comparisons between models under the same judge, per split (default true). */
  pairwise?: boolean;
}

interface Context {
  groups: ModelJudgeGroup[];
  options: TablesOptions;
}

const label = (group: ModelJudgeGroup) => ({ model: group.model, judge: group.judge });
/** Flattens per-group rows into table rows labelled with model and judge. */
const perGroup = <T extends object>(
  groups: ModelJudgeGroup[],
  split: SplitName | null,
  build: (rows: ResultRow[]) => T[],
) =>
  groups.flatMap((group) => {
    const rows = split ? ofSplit(group.rows, split) : group.rows;
    return rows.length > 0 ? build(rows).map((row) => ({ ...label(group), ...row })) : [];
  });
const hasAny = (rows: readonly ResultRow[], ...splits: SplitName[]) =>
  rows.some((row) => splits.includes(row.facets.split));

function baseVsExtraneousRow(rows: ResultRow[]) {
  return {
    holistic: baseVsExtraneous(
      ofSplit(rows, 'holistic_planning'),
      ofSplit(rows, 'holistic_tool_extraneous'),
    ),
    step_wise: baseVsExtraneous(
      ofSplit(rows, 'step_wise_planning'),
      ofSplit(rows, 'step_wise_tool_extraneous'),
    ),
  };
}

function table2({ groups }: Context) {
  return groups
    .filter((group) => hasAny(group.rows, 'holistic_tool_extraneous', 'step_wise_tool_extraneous'))
    .map((group) => {
      const halves = baseVsExtraneousRow(group.rows);
      const half = (value: (typeof halves)['holistic']) => ({
        tc: value.tc,
        cr_b: value.cr_orig,
        cr_e: value.cr_red,
        delta: value.cr_delta,
        cr_b_ci: value.cr_orig_ci,
        cr_e_ci: value.cr_red_ci,
        n_b: value.n_orig,
        n_e: value.n_red,
        n_pairs: value.n_pairs,
        n_e_unmatched: value.n_red_unmatched,
        cr_e_pooled: value.cr_red_pooled,
        n_e_pooled: value.n_red_pooled,
      });
      return {
        ...label(group),
        holistic: half(halves.holistic),
        step_wise: half(halves.step_wise),
      };
    });
}

function table5({ groups }: Context) {
  const efficiency = groups.filter((group) => hasAny(group.rows, 'holistic_efficiency'));
  // C_com's common set is over models; baselines join it only when nothing else is compared.
  const byJudge = (judge: string) => {
    const sameJudge = efficiency.filter((group) => group.judge === judge);
    const models = sameJudge.filter((group) => !isBaseline(group.model));
    return (models.length > 0 ? models : sameJudge).map((group) =>
      ofSplit(group.rows, 'holistic_efficiency'),
    );
  };
  return efficiency.map((group) => ({
    ...label(group),
    ...efficiencyRow(
      ofSplit(group.rows, 'holistic_efficiency'),
      commonlySolved(byJudge(group.judge)),
    ),
  }));
}

function errorIncidence({ groups }: Context) {
  return {
    by_setting: perGroup(groups, null, (rows) =>
      SPLITS.filter((split) => hasAny(rows, split)).map((split) => ({
        setting: split,
        ...errorDistribution(ofSplit(rows, split)),
      })),
    ),
    by_model: groups
      .filter((group) => hasAny(group.rows, 'holistic_planning', 'step_wise_planning'))
      .map((group) => ({
        ...label(group),
        ...errorDistribution(
          group.rows.filter((row) =>
            ['holistic_planning', 'step_wise_planning'].includes(row.facets.split),
          ),
        ),
      })),
  };
}

function repeats({ groups }: Context) {
  return perGroup(groups, null, (rows) =>
    SPLITS.flatMap((split) => {
      const splitRows = ofSplit(rows, split);
      const maxRepeat = splitRows.reduce((max, row) => Math.max(max, row.repeat), -1);
      if (maxRepeat < 1) return [];
      return Array.from({ length: maxRepeat + 1 }, (_, index) => ({
        split,
        ...repeatStats(splitRows, index + 1),
      }));
    }),
  );
}

function paired({ groups, options }: Context) {
  if (options.pairwise === false) return [];
  return groups.flatMap((a, index) =>
    groups.slice(index + 1).flatMap((b) =>
      a.judge !== b.judge || a.model === b.model
        ? []
        : SPLITS.filter((split) => hasAny(a.rows, split) && hasAny(b.rows, split)).flatMap(
            (split) => {
              const comparison = comparePaired(ofSplit(a.rows, split), ofSplit(b.rows, split));
              return comparison.shared > 0
                ? [{ split, judge: a.judge, a: a.model, b: b.model, ...comparison }]
                : [];
            },
          ),
    ),
  );
}

/** The table builders, keyed by the id each has in `scores.json.tables`. */
export const TABLE_BUILDERS = {
  table1: ({ groups }: Context) =>
    groups
      .filter((group) => hasAny(group.rows, ...RELEASED_SPLITS))
      .map((group) => table1Row(group.model, group.judge, group.rows)),
  table2,
  table4: ({ groups }: Context) =>
    groups.flatMap((group) =>
      refinementRows(group.rows).map((row) => ({ ...label(group), ...row })),
    ),
  table4_overcorrections: ({ groups }: Context) =>
    groups.flatMap((group) =>
      overCorrections(group.rows).map((row) => ({ ...label(group), ...row })),
    ),
  table5,
  table12: ({ groups }: Context) => perGroup(groups, 'holistic_planning', byStepRange),
  table13: ({ groups }: Context) => perGroup(groups, 'holistic_planning', byModality),
  table14: ({ groups }: Context) => perGroup(groups, 'step_wise_planning', byHorizon),
  table15: ({ groups }: Context) => perGroup(groups, 'step_wise_planning', byStage),
  table16: ({ groups }: Context) =>
    perGroup(groups, 'step_wise_tool_extraneous', byDistractorLevel),
  table17: ({ groups }: Context) => perGroup(groups, 'holistic_tool_extraneous', byDistractorLevel),
  table18: ({ groups }: Context) =>
    groups
      .filter((group) =>
        hasAny(group.rows, 'holistic_tool_extraneous', 'step_wise_tool_extraneous'),
      )
      .map((group) => ({ ...label(group), ...baseVsExtraneousRow(group.rows) })),
  error_incidence: errorIncidence,
  repeats,
  paired,
} satisfies Record<string, (context: Context) => unknown>;

/** The id of a table in `scores.json.tables`. */
export type TableId = keyof typeof TABLE_BUILDERS;
/** Every table, by id, and how many input rows they read. */
export type Tables = { [K in TableId]: ReturnType<(typeof TABLE_BUILDERS)[K]> } & {
  input: { rows: number; duplicates_dropped: number };
};

/**
 * Keeps the last row of each (model, judge, split, id, repeat, refinement), at the first one's place:
 * an appended re-run replaces the earlier line instead of counting twice (the official scorer counts both).
 */
export function latestRows(rows: readonly ResultRow[]): ResultRow[] {
  const latest = new Map<string, ResultRow>();
  for (const row of rows) {
    const method = row.refinement
      ? [
          row.refinement.mode,
          row.refinement.taxonomy,
          row.refinement.critic,
          row.refinement.rounds ?? 1,
        ]
      : null;
    const key = JSON.stringify([
      row.model,
      row.judge,
      row.facets.split,
      row.id,
      row.repeat,
      method,
    ]);
    latest.set(key, row);
  }
  return [...latest.values()];
}

/**
 * Computes every paper table from the rows (pure; JSON-serialisable output); duplicates are dropped
 * first (`latestRows`).
 */
export function computeTables(rows: readonly ResultRow[], options: TablesOptions = {}): Tables {
  const distinct = latestRows(rows);
  const unrefined = distinct.filter((row) => !row.refinement);
  const context: Context = { groups: groupByModelJudge(unrefined), options };
  const refinedContext: Context = { groups: groupByModelJudge(distinct), options };
  const tables = {} as Record<TableId, unknown>;
  for (const id of Object.keys(TABLE_BUILDERS) as TableId[]) {
    tables[id] = TABLE_BUILDERS[id](
      id === 'table4' || id === 'table4_overcorrections' ? refinedContext : context,
    );
  }
  return {
    ...(tables as Omit<Tables, 'input'>),
    input: { rows: rows.length, duplicates_dropped: rows.length - distinct.length },
  };
}
