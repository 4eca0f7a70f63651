/**
 * The paper's figures drawn from our tables, as inline SVG: error distribution by planning mode
 * (Fig. 3), distractor-tool use by level with the overall average dashed (Fig. 4), correctness by
 * horizon (Fig. 5) and by stage (Fig. 6), error categories by model (Fig. 58, 59), and refinement's
 * base → refined correctness per model and method (Table 4). Pure.
 */
import { SPLIT_REGIME, type SplitName } from '../../dataset/case.js';
import type { Tables } from '../../metrics/tables.js';
import { fixed } from '../numbers.js';
import { groupedBarChart, lineChart, stackedShareChart, type Series } from './charts.js';
import {
  byGroup,
  ERRORS,
  KEYS,
  namer,
  percent,
  sharesOf,
  type Figure,
  type Labelled,
} from './figure-parts.js';
import { figures58and59, refinementFigures } from './model-figures.js';

export type { Figure } from './figure-parts.js';

function figure3(tables: Tables): Figure | null {
  const rows = tables.error_incidence.by_setting;
  if (rows.length === 0) return null;
  const pooled = new Map<string, { counts: Record<(typeof KEYS)[number], number>; n: number }>();
  const add = (label: string, row: (typeof rows)[number]) => {
    const entry = pooled.get(label) ?? {
      counts: { e1: 0, e2: 0, e3: 0, e4: 0, e5: 0, e6: 0 },
      n: 0,
    };
    for (const key of KEYS) entry.counts[key] += row.counts[key];
    entry.n += row.n;
    pooled.set(label, entry);
  };
  for (const row of rows)
    add(`${SPLIT_REGIME[row.setting as SplitName] ?? row.setting} (all splits)`, row);
  for (const row of rows) add(row.setting, row);
  const svg = stackedShareChart({
    id: 'fig3-error-distribution',
    title: 'Error distribution by planning mode (Fig. 3)',
    description:
      'Share of each error category among all error flags, per planning mode and per split, pooled over models.',
    rows: [...pooled].map(([label, entry]) => ({
      label,
      shares: sharesOf(entry.counts),
      note: `${entry.n} cases`,
    })),
    segments: ERRORS,
    xLabel: 'share of error flags (%)',
    format: percent,
  });
  return {
    id: 'fig3',
    caption: 'Error categories by planning mode, pooled over every model in the report.',
    svg,
  };
}

function figure4(
  rows: readonly (Labelled & { level: number | null; ext_use: number | null; n: number })[],
  regime: string,
  id: string,
): Figure | null {
  const levels = [
    ...new Set(rows.map((row) => row.level).filter((level): level is number => level !== null)),
  ].sort((a, b) => a - b);
  const known = rows.filter((row) => row.ext_use !== null && row.level !== null);
  if (levels.length === 0 || known.length === 0) return null;
  const name = namer(rows);
  const series: Series[] = byGroup(rows).map(({ label, rows: own }) => ({
    name: name(label),
    values: levels.map((level) => own.find((row) => row.level === level)?.ext_use ?? null),
    notes: levels.map((level) => {
      const row = own.find((candidate) => candidate.level === level);
      return row ? `n ${row.n}` : null;
    }),
  }));
  const average = known.reduce((sum, row) => sum + row.ext_use!, 0) / known.length;
  const svg = lineChart({
    id: `${id}-extraneous-use`,
    title: `Distractor-tool uses by level, ${regime} (Fig. 4)`,
    description: `Total calls to distractor tools at each distractor level, per model, ${regime} tool-extraneous split. The dashed red line is the overall average count.`,
    categories: levels.map(String),
    series,
    xLabel: 'distractor tools added',
    yLabel: 'distractor-tool uses',
    format: (value) => fixed(value, value % 1 === 0 ? 0 : 1),
    reference: { value: average, label: `overall average (${fixed(average, 1)})` },
  });
  return {
    id,
    caption: `Distractor-tool uses per level (${regime}); dashed: overall average.`,
    svg,
  };
}

function crSeries<
  T extends Labelled & { cr: number | null; cr_ci?: { lo: number; hi: number } | null; n: number },
>(rows: readonly T[], categories: readonly unknown[], keyOf: (row: T) => unknown): Series[] {
  const name = namer(rows);
  return byGroup(rows).map(({ label, rows: own }) => ({
    name: name(label),
    values: categories.map((category) => own.find((row) => keyOf(row) === category)?.cr ?? null),
    intervals: categories.map(
      (category) => own.find((row) => keyOf(row) === category)?.cr_ci ?? null,
    ),
    notes: categories.map((category) => {
      const row = own.find((candidate) => keyOf(candidate) === category);
      return row ? `n ${row.n}` : null;
    }),
  }));
}

function figure5(tables: Tables): Figure | null {
  const rows = tables.table14.filter((row) => row.horizon !== null);
  if (rows.length === 0) return null;
  const horizons = [...new Set(rows.map((row) => row.horizon!))].sort((a, b) => a - b);
  const svg = lineChart({
    id: 'fig5-horizon',
    title: 'Step-wise correctness by prediction horizon (Fig. 5)',
    description:
      'Correctness rate of step-wise planning for 1-, 2- and 3-step predictions, per model.',
    categories: horizons.map((horizon) => `${horizon}-step`),
    series: crSeries(rows, horizons, (row) => row.horizon),
    xLabel: 'prediction horizon',
    yLabel: 'correctness rate (%)',
    yMax: 100,
    format: percent,
  });
  return {
    id: 'fig5',
    caption: 'Step-wise correctness by horizon; whiskers: 95 % Wilson intervals.',
    svg,
  };
}

function figure6(tables: Tables): Figure | null {
  const rows = tables.table15.filter((row) => row.stage !== null);
  if (rows.length === 0) return null;
  const stages = ['early', 'middle', 'late'].filter((stage) =>
    rows.some((row) => row.stage === stage),
  );
  const svg = groupedBarChart({
    id: 'fig6-stage',
    title: 'Step-wise correctness by trajectory stage (Fig. 6)',
    description:
      'Correctness rate of step-wise planning when the trajectory is cut early, in the middle or late, per model.',
    categories: stages,
    series: crSeries(rows, stages, (row) => row.stage),
    xLabel: 'trajectory stage',
    yLabel: 'correctness rate (%)',
    yMax: 100,
    format: percent,
  });
  return {
    id: 'fig6',
    caption: 'Step-wise correctness by stage; whiskers: 95 % Wilson intervals.',
    svg,
  };
}

/** Every figure the tables can fill, in the paper's order. */
export function renderFigures(tables: Tables): Figure[] {
  return [
    figure3(tables),
    figure4(tables.table17, 'holistic', 'fig4-holistic'),
    figure4(tables.table16, 'step-wise', 'fig4-step-wise'),
    figure5(tables),
    figure6(tables),
    ...figures58and59(tables),
    ...refinementFigures(tables),
  ].filter((figure): figure is Figure => figure !== null);
}
