/** The closing lines of `apb refine`: what was done, what it cost in calls, and base → refined per regime from scores.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RefinementRow } from '../metrics/refinement.js';
import type { RefineRunSummary } from '../pipeline/refine-run.js';
import { fixed, pValue, signed } from '../report/numbers.js';
import { methodLabel } from '../report/labels.js';

/** Lines to print after a refinement (the run's outputs already written). */
export function refineSummaryLines(dir: string, summary: RefineRunSummary): string[] {
  const { counts, usage } = summary.manifest;
  const { ok, error, parse_error: parseError } = counts.predictions;
  const lines = [
    `apb: ${summary.finished} refined answer(s) in ${dir} (${ok} revised, ${parseError} unreadable after revision, ${error} without a refined answer), ${summary.alreadyDone} already done; ${usage.critic?.calls ?? 0} critique and ${usage.planner.calls} revision call(s), ${usage.judge.calls} judge call(s)`,
  ];
  const scores = JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8')) as { tables?: { table4?: Array<RefinementRow & { model: string }> } };
  for (const row of scores.tables?.table4 ?? []) {
    lines.push(
      `  ${methodLabel(row)} ${row.regime}: CR ${fixed(row.base_cr, 2)}% → ${fixed(row.refined_cr, 2)}% (Δ ${signed(row.delta, 2)}; n ${row.n}; ${row.flips.to_correct} turned correct, ${row.flips.to_incorrect} turned incorrect; McNemar p ${pValue(row.p_value)}${row.failed ? `; ${row.failed} refinement(s) failed` : ''})`,
    );
  }
  lines.push(`apb: Table 4 in ${path.join(dir, 'scores.json')}; report in ${path.join(dir, 'report.md')}`);
  return lines;
}
