/**
 * The paper's figures drawn from our tables, as inline SVG: error distribution by planning mode
 * (Fig. 3), distractor-tool use by level with the overall average dashed (Fig. 4), correctness by
 * horizon (Fig. 5) and by stage (Fig. 6), error categories by model (Fig. 58, 59), and refinement's
 * base → refined correctness per model and method (Table 4). Pure.
 */
import { SPLIT_REGIME, type SplitName } from '../../dataset/case.js';
import type { Tables } from '../../metrics/tables.js';
import { fixed } from '../numbers.js';
import { methodLabel } from '../labels.js';
import {
  groupedBarChart,
  heatmapChart,
  lineChart,
  stackedShareChart,
  type Series,
} from './charts.js';

/** One rendered figure. */
export interface Figure {
  id: string;
  caption: string;
  svg: string;
}

const ERRORS = [
  'E1 goal',
  'E2 incomplete / premature',
  'E3 constraint',
  'E4 logic',
  'E5 tool use',
  'E6 hallucination',
];
const KEYS = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;
const percent = (value: number) => `${fixed(value, 1)} %`;

type Labelled = { model: string; judge: string };

/** Series names: the model, with its judge when a model appears under several judges. */
function namer(rows: readonly Labelled[]): (row: Labelled) => string {
  const judgesOf = new Map<string, Set<string>>();
  for (const row of rows)
    judgesOf.set(row.model, (judgesOf.get(row.model) ?? new Set()).add(row.judge));
  return (row) =>
    (judgesOf.get(row.model)?.size ?? 0) > 1 ? `${row.model} (${row.judge})` : row.model;
}

/** Rows grouped per (model, judge) in first-seen order. */
function byGroup<T extends Labelled>(rows: readonly T[]): { label: Labelled; rows: T[] }[] {
  const groups = new Map<string, { label: Labelled; rows: T[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.model, row.judge]);
    if (!groups.has(key))
      groups.set(key, { label: { model: row.model, judge: row.judge }, rows: [] });
    groups.get(key)!.rows.push(row);
  }
  return [...groups.values()];
}

function sharesOf(counts: Record<(typeof KEYS)[number], number>): number[] {
  const total = KEYS.reduce((sum, key) => sum + counts[key], 0);
  return KEYS.map((key) => (total > 0 ? (100 * counts[key]) / total : 0));
}

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

function figures58and59(tables: Tables): Figure[] {
  const rows = tables.error_incidence.by_model;
  if (rows.length === 0) return [];
  const name = namer(rows);
  return [
    {
      id: 'fig58',
      caption:
        "Share of each error category among a model's error flags (holistic and step-wise planning).",
      svg: stackedShareChart({
        id: 'fig58-errors-by-model',
        title: 'Error categories by model (Fig. 58)',
        description:
          'For each model, the share of each error category among all its error flags on holistic and step-wise planning.',
        rows: rows.map((row) => ({
          label: name(row),
          shares: KEYS.map((key) => row.shares[key] ?? 0),
          note: `${row.n} cases, ${row.flagged} with errors`,
        })),
        segments: ERRORS,
        xLabel: 'share of error flags (%)',
        format: percent,
      }),
    },
    {
      id: 'fig59',
      caption:
        'Incidence of each error (percent of cases) per model (holistic and step-wise planning).',
      svg: heatmapChart({
        id: 'fig59-error-incidence',
        title: 'Error incidence by model (Fig. 59)',
        description:
          'Percent of holistic and step-wise planning cases flagged with each error, per model.',
        rows: rows.map((row) => name(row)),
        columns: ['E1', 'E2', 'E3', 'E4', 'E5', 'E6'],
        values: rows.map((row) => KEYS.map((key) => row.rates[key])),
        format: percent,
      }),
    },
  ];
}

/**
 * Base and refined CR per method, two bars per model, one chart per regime (Table 4 as a figure;
 * step-wise per horizon).
 */
function refinementFigures(tables: Tables): Figure[] {
  const rows = tables.table4;
  const regimes = [...new Set(rows.map((row) => row.regime))];
  const name = namer(rows);
  return regimes.map((regime) => {
    const own = rows.filter((row) => row.regime === regime);
    const methods = [...new Set(own.map((row) => methodLabel(row)))];
    const series: Series[] = byGroup(own).flatMap(({ label, rows: group }) =>
      (['base', 'refined'] as const).map((side) => ({
        name: `${name(label)}: ${side}`,
        values: methods.map(
          (method) =>
            group.find((row) => methodLabel(row) === method)?.[
              side === 'base' ? 'base_cr' : 'refined_cr'
            ] ?? null,
        ),
        notes: methods.map((method) => {
          const row = group.find((candidate) => methodLabel(candidate) === method);
          return row
            ? `n ${row.n}; ${row.flips.to_correct} turned correct, ${row.flips.to_incorrect} turned incorrect`
            : null;
        }),
      })),
    );
    const svg = groupedBarChart({
      id: `fig-refine-${regime}`,
      title: `Refinement, ${regime}: base → refined correctness (Table 4)`,
      description: `Correctness rate of the initial answers (base) and of the refined answers, per model and refinement method, ${regime}. (+) = critique with the E1–E6 taxonomy.`,
      categories: methods,
      series,
      xLabel: 'refinement method',
      yLabel: 'correctness rate (%)',
      yMax: 100,
      format: percent,
    });
    return {
      id: `fig-refine-${regime}`,
      caption: `Base against refined correctness per method (${regime}).`,
      svg,
    };
  });
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
