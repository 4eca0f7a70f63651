/**
 * `ReportData`: everything a report shows, computed once and rendered by every format. Built from
 * the run directories' rows (and, for the HTML case browser, their lines) by a pure function: the
 * paper tables, the failure counts behind them, comparability tags, the optional paper comparison.
 */
import type { ResultRow } from '../metrics/result-row.js';
import { computeTables, groupByModelJudge, type Tables } from '../metrics/tables.js';
import type { JudgeSections } from '../pipeline/judge-sections.js';
import {
  buildCaseBrowser,
  type CaseBrowserData,
  type LineWithRow,
  type MediaItem,
} from './cases.js';
import { groupKey, type Comparability } from './comparability.js';
import { keyByDataset } from './dataset-keys.js';
import { roleNotes } from './labels.js';
import { comparePaper, type PaperComparison, type PaperTables } from './paper.js';
import { runIndexer, summarizeGroups, usageSection, type GroupSummary } from './report-groups.js';
import { reportNotes, summarizeRuns, type ReportRunInput, type RunSummary } from './report-runs.js';
import { unfinishedBanners, unfinishedStatusOf } from './run-status.js';
import { rankScorecard, scorecard, type HeadlineKey, type ScorecardRow } from './scorecard.js';
import type { UsageSection } from './usage.js';

export { failureReasons } from './report-groups.js';
export type { FailureReasonCount, GroupSummary } from './report-groups.js';
export type { ReportRunInput, RunSummary } from './report-runs.js';

/** Options of `buildReportData`. */
export interface ReportOptions {
  title?: string;
  /** When the report was made (ISO text), passed in so the builder stays pure; null to omit. */
  generatedAt?: string | null;
  /** The paper's tables (data/paper-tables.json) for `--compare-paper`; null or absent for none. */
  paper?: PaperTables | null;
  /** Build the case browser (HTML only); needs `lines` on the runs. */
  caseBrowser?: boolean;
  /** Embedded media by `mediaKey(runIndex, path)`. */
  media?: ReadonlyMap<string, MediaItem>;
  /** Pairwise McNemar comparisons (default true). */
  pairwise?: boolean;
  /** The headline the scorecard (a leaderboard) is ranked by (default holistic CR). */
  rankBy?: HeadlineKey;
}

/** Everything a report renders. */
export interface ReportData {
  title: string;
  generatedAt: string | null;
  ciMethod: string;
  runs: RunSummary[];
  groups: GroupSummary[];
  /** Table 1's five headline numbers per (model, judge), with intervals. */
  scorecard: ScorecardRow[];
  /** The headline the scorecard is ranked by. */
  rankBy: HeadlineKey;
  /** One banner per run that did not finish (status, cases held): shown first in every format. */
  banners: string[];
  /** Calls, tokens, cost, latency, cache hits, retries and 429s per (model, judge). */
  usage: UsageSection;
  comparability: Comparability;
  tables: Tables;
  paper: PaperComparison | null;
  cases: CaseBrowserData | null;
  /** Judge diagnostics per run (agreement between judges, contradictions with the checks). */
  judgeSections: { dir: string; sections: JudgeSections }[];
  notes: string[];
}

/** A run's dataset as the runs table shows it: path, short content hash and the cases its judgements cover. */
export function describeDataset(run: RunSummary): string {
  const hash = run.datasetHash ? `, ${run.datasetHash.slice(0, 12)}…` : '';
  return `${run.dataset ?? 'unknown (no manifest)'}${hash}, ${run.cases} case(s)`;
}

/** How a run's source reads in the reports. */
export function describeSource(run: RunSummary): string {
  if (run.source === 'apb') return `apb (${run.status ?? 'unknown'})`;
  return run.source === 'apb-lines'
    ? 'apb judgements (no manifest)'
    : 'official harness (no manifest)';
}

/** How the intervals and paired verdicts are computed (stated in every report). */
export const CI_METHOD =
  '95 % Wilson score intervals on every correctness rate; composite rates (Table 1 step-wise and tool-extraneous, unweighted means over strata) use the Wilson interval at the Kish effective sample size. Paired comparisons: exact two-sided McNemar test on the cases both models answered, α = 0.05.';

const rowKey = (row: ResultRow) =>
  JSON.stringify([
    row.model,
    row.judge,
    row.facets.split,
    row.id,
    row.repeat,
    row.refinement
      ? [
          row.refinement.mode,
          row.refinement.taxonomy,
          row.refinement.critic,
          row.refinement.rounds ?? 1,
        ]
      : null,
  ]);

/** Keeps the first judgement of each (model, judge, split, id, repeat, refinement) across runs, counting the rest per run. */
function dedupe(runs: readonly ReportRunInput[]): {
  kept: LineWithRow[][];
  rows: ResultRow[][];
  duplicates: number[];
} {
  const seen = new Set<string>();
  const kept: LineWithRow[][] = [];
  const rows: ResultRow[][] = [];
  const duplicates: number[] = [];
  for (const run of runs) {
    const items: LineWithRow[] = run.lines ?? run.rows.map((row) => ({ row, line: {} }));
    const fresh = items.filter((item) => {
      const key = rowKey(item.row);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    kept.push(fresh);
    rows.push(fresh.map((item) => item.row));
    duplicates.push(items.length - fresh.length);
  }
  return { kept, rows, duplicates };
}

/** Builds the report's data from the runs (pure: time, paper tables and media come in as options). */
export function buildReportData(
  input: readonly ReportRunInput[],
  options: ReportOptions = {},
): ReportData {
  const { runs, renamed } = keyByDataset(input);
  const { kept, rows: rowsByRun, duplicates } = dedupe(runs);
  const allRows = rowsByRun.flat();
  const tables = computeTables(allRows, { pairwise: options.pairwise ?? true });
  const groups = groupByModelJudge(allRows.filter((row) => !row.refinement));
  const runIndexes = runIndexer(rowsByRun);
  const { comparability, summaries } = summarizeGroups(runs, groups, runIndexes);
  const runSummaries = summarizeRuns(runs, rowsByRun, duplicates);
  const rankBy = options.rankBy ?? 'holistic';
  const statusOf = new Map(
    summaries.map((group) => [
      groupKey(group.model, group.judge),
      unfinishedStatusOf(runSummaries, group.runs),
    ]),
  );
  const ranked = rankScorecard(scorecard(tables.table1), rankBy).map((row) => ({
    ...row,
    unfinished: statusOf.get(groupKey(row.model, row.judge)) ?? null,
  }));
  return {
    title:
      options.title ??
      (runs.length === 1 ? `APB report: ${runs[0]!.dir}` : `APB leaderboard: ${runs.length} runs`),
    generatedAt: options.generatedAt ?? null,
    ciMethod: CI_METHOD,
    runs: runSummaries,
    groups: summaries,
    scorecard: ranked,
    rankBy,
    banners: unfinishedBanners(runSummaries),
    usage: usageSection(runs, groups, summaries, runIndexes),
    comparability,
    tables,
    paper: options.paper
      ? comparePaper(tables, summaries, options.paper, casesPerSplit(allRows))
      : null,
    cases: options.caseBrowser ? buildCaseBrowser(kept, options.media) : null,
    judgeSections: runs.flatMap((run) =>
      run.judgeSections ? [{ dir: run.dir, sections: run.judgeSections }] : [],
    ),
    notes: [
      ...roleNotes(
        summaries.map((group) => group.model),
        summaries.map((group) => group.judge),
      ),
      ...reportNotes(runSummaries, comparability),
      ...renamed.map(
        (rename) =>
          `One model on two datasets is never pooled: its rows from a later dataset are named ${rename}.`,
      ),
    ],
  };
}

/** Distinct cases per split over every row (the largest data any paper comparison speaks of). */
function casesPerSplit(rows: readonly ResultRow[]): Record<string, number> {
  const ids: Record<string, Set<string>> = {};
  for (const row of rows) (ids[row.facets.split] ??= new Set()).add(row.id);
  return Object.fromEntries(Object.entries(ids).map(([split, set]) => [split, set.size]));
}
