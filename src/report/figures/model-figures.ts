/**
 * The figures per model: error categories (Fig. 58) and error incidence (Fig. 59), and refinement's
 * base → refined correctness per model and method (Table 4 as a figure). Pure.
 */
import type { Tables } from '../../metrics/tables.js';
import { methodLabel } from '../labels.js';
import { groupedBarChart, heatmapChart, stackedShareChart, type Series } from './charts.js';
import { byGroup, ERRORS, KEYS, namer, percent, type Figure } from './figure-parts.js';

export function figures58and59(tables: Tables): Figure[] {
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
          'For each model, the share of each error category among all its error flags on holistic ' +
          'and step-wise planning.',
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
export function refinementFigures(tables: Tables): Figure[] {
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
            ? `n ${row.n}; ${row.flips.to_correct} turned correct, ` +
                `${row.flips.to_incorrect} turned incorrect`
            : null;
        }),
      })),
    );
    const svg = groupedBarChart({
      id: `fig-refine-${regime}`,
      title: `Refinement, ${regime}: base → refined correctness (Table 4)`,
      description:
        'Correctness rate of the initial answers (base) and of the refined answers, per model and ' +
        `refinement method, ${regime}. (+) = critique with the E1–E6 taxonomy.`,
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
