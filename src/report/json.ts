/**
 * `ReportData` → JSON: `{"tables": {...}}` exactly as CONTRACT.md "Table 1 in JSON" (rates 0–100
 * and grades 0–1, unrounded), plus `report` (runs, totals, comparability, notes, CI method) and,
 * with `--compare-paper`, `paper_comparison`.
 */
import type { ReportData } from './report-data.js';

/** Renders the report as pretty-printed JSON. */
export function renderJson(data: ReportData): string {
  const output: Record<string, unknown> = {
    tables: data.tables,
    report: {
      title: data.title,
      generated_at: data.generatedAt,
      ci_method: data.ciMethod,
      runs: data.runs.map((run) => ({ ...run, issues: run.issues.length })),
      totals: data.groups,
      banners: data.banners,
      rank_by: data.rankBy,
      scorecard: data.scorecard,
      usage: data.usage,
      comparable: data.comparability.comparable,
      comparability: data.comparability.classes,
      notes: data.notes,
    },
  };
  if (data.paper) output.paper_comparison = data.paper;
  return `${JSON.stringify(output, null, 2)}\n`;
}
