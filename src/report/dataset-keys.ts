/**
 * Table 1 and every table are keyed by (model, judge): two runs of one model on different datasets
 * would pool into one row. Before the tables are computed, the rows of such a model from every
 * dataset but its first get the dataset in their model name ("m @ other-set"), so each
 * (model, judge, dataset) is its own row everywhere (tables, scorecard, case browser). Pure.
 */
import type { ResultRow } from '../metrics/result-row.js';
import type { LineWithRow } from './cases.js';
import type { ReportRunInput } from './report-runs.js';

/** The short name of a run's dataset: the last part of its path, else the first 8 of its hash. */
function datasetName(run: ReportRunInput): string {
  const dataset = run.manifest?.dataset;
  const base = dataset?.path?.split(/[\\/]/).filter(Boolean).pop();
  return base || dataset?.content_hash?.slice(0, 8) || 'unknown';
}

/** The runs with the rows of a model seen on an earlier dataset renamed `model @ dataset`; the renames made. */
export function keyByDataset(runs: readonly ReportRunInput[]): {
  runs: ReportRunInput[];
  renamed: string[];
} {
  const firstHash = new Map<string, string>();
  const renamed = new Set<string>();
  const out = runs.map((run) => {
    const hash = run.manifest?.dataset?.content_hash;
    if (!hash) return run;
    const name = datasetName(run);
    const rename = (row: ResultRow): ResultRow => {
      const key = JSON.stringify([row.model, row.judge]);
      const seen = firstHash.get(key);
      if (seen === undefined) firstHash.set(key, hash);
      if (seen === undefined || seen === hash) return row;
      const model = `${row.model} @ ${name}`;
      renamed.add(`${row.model} → ${model}`);
      return { ...row, model };
    };
    const lines = run.lines?.map((item): LineWithRow => {
      const row = rename(item.row);
      if (row === item.row) return item;
      // Keep `line` lazy: the I/O layer may read it from disk on each access.
      return Object.defineProperties({ row, queryHead: item.queryHead } as LineWithRow, {
        line: { get: () => item.line, enumerable: true },
      });
    });
    return { ...run, rows: run.rows.map(rename), ...(lines ? { lines } : {}) };
  });
  return { runs: out, renamed: [...renamed] };
}
