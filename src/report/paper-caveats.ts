/**
 * What a reader must know before comparing a paper table's cells with ours, stated only when the
 * table is compared: which of our rows are set beside the printed ones, on which cases, under
 * which judge.
 */
import type { Tables } from '../metrics/tables.js';
import type { Loose, PaperGroup } from './paper-cells.js';

const sourcesText = (sources: Record<string, number>) =>
  Object.entries(sources)
    .map(([source, count]) => `${source} ${count}`)
    .join(', ');

/** Table 4's caveats: which of our rows are compared (next-1 only), on which cases, under which judge. */
export function table4Caveats(tables: Tables, group: PaperGroup): string[] {
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
export function table5Caveats(tables: Tables, group: PaperGroup): string[] {
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
