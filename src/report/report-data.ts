/**
 * `ReportData`: everything a report shows, computed once and rendered by every format. Built from
 * the run directories' rows (and, for the HTML case browser, their lines) by a pure function: the
 * paper tables, the failure counts behind them, comparability tags, the optional paper comparison.
 */
import type { InputIssue } from '../errors.js';
import type { JudgeSections } from '../pipeline/judge-sections.js';
import { roleNotes } from './labels.js';
import { failureCounts, isCorrect, type FailureCounts } from '../metrics/correctness-rate.js';
import type { ResultRow } from '../metrics/result-row.js';
import { computeTables, groupByModelJudge, type Tables } from '../metrics/tables.js';
import type { Manifest } from '../pipeline/manifest.js';
import {
  buildCaseBrowser,
  type CaseBrowserData,
  type LineWithRow,
  type MediaItem,
} from './cases.js';
import {
  classifyGroups,
  comparabilityProfile,
  groupKey,
  type Comparability,
} from './comparability.js';
import { comparePaper, type PaperComparison, type PaperTables } from './paper.js';
import { scorecard, type ScorecardRow } from './scorecard.js';
import { endpointsOf, usageRow, type UsageSection } from './usage.js';

/** One run directory as read by the I/O layer. */
export interface ReportRunInput {
  dir: string;
  rows: ResultRow[];
  manifest: Manifest | null;
  /** Lines with their rows, for the HTML case browser; when given, `rows` may be empty (the lines' rows are used). */
  lines?: LineWithRow[];
  /** Every file path the lines name (collected while reading them), so media need not read the lines again. */
  mediaPaths?: string[];
  /** Lines that could not be read (FILE:LINE: field: message). */
  issues?: InputIssue[];
  tornLastLine?: number | null;
  /** The agreement / contradictions sections of the run's (fresh) scores.json, when it has them. */
  judgeSections?: JudgeSections;
}

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
}

/** What the report says about one run directory. */
export interface RunSummary {
  dir: string;
  /** `apb` with a manifest, `apb-lines` for our lines without one, `official` for an official-harness judgements.jsonl. */
  source: 'apb' | 'apb-lines' | 'official';
  status: string | null;
  dataset: string | null;
  /** The dataset's content hash from the manifest (null without one). */
  datasetHash: string | null;
  /** Distinct (split, id) cases the run's judgements cover. */
  cases: number;
  protocol: string | null;
  models: string[];
  judges: string[];
  judgements: number;
  issues: InputIssue[];
  tornLastLine: number | null;
  /** Judgements ignored because an earlier run already had the same (model, judge, split, id, repeat). */
  duplicates: number;
}

/** The totals behind one (model, judge) row of every table. */
export interface GroupSummary extends FailureCounts {
  model: string;
  judge: string;
  correct: number;
  /** Judgements whose planner answer was read and judged (neither side failed). */
  ok: number;
  /** Why planner calls, answers or verdicts failed, most frequent first. */
  failure_reasons: FailureReasonCount[];
  /** Comparability tag (A, B, …): rows with different tags are not directly comparable. */
  tag: string;
  runs: string[];
}

/** How often one failure reason occurred, with one example message. */
export interface FailureReasonCount {
  reason: string;
  count: number;
  example: string;
}

/** Failure reasons of some rows, most frequent first (ties in first-seen order). */
export function failureReasons(rows: readonly ResultRow[]): FailureReasonCount[] {
  const byReason = new Map<string, FailureReasonCount>();
  for (const row of rows) {
    if (!row.failure) continue;
    const entry = byReason.get(row.failure.key);
    if (entry) entry.count += 1;
    else
      byReason.set(row.failure.key, {
        reason: row.failure.key,
        count: 1,
        example: row.failure.message,
      });
  }
  return [...byReason.values()].sort((a, b) => b.count - a.count);
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

function protocolOf(manifest: Manifest | null): string {
  if (!manifest) return 'unknown';
  return `${manifest.identity?.protocol ?? 'unknown'}${manifest.identity?.judge_blind ? ' (blind judge)' : ''}`;
}

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
  runs: readonly ReportRunInput[],
  options: ReportOptions = {},
): ReportData {
  const { kept, rows: rowsByRun, duplicates } = dedupe(runs);
  const allRows = rowsByRun.flat();
  const tables = computeTables(allRows, { pairwise: options.pairwise ?? true });
  const groups = groupByModelJudge(allRows.filter((row) => !row.refinement));
  const runsOfGroup = new Map<string, Set<number>>();
  rowsByRun.forEach((rows, index) => {
    for (const row of rows) {
      const key = groupKey(row.model, row.judge);
      if (!runsOfGroup.has(key)) runsOfGroup.set(key, new Set());
      runsOfGroup.get(key)!.add(index);
    }
  });
  const runIndexes = (model: string, judge: string) => [
    ...(runsOfGroup.get(groupKey(model, judge)) ?? []),
  ];
  const comparability = classifyGroups(
    groups.map((group) => ({
      model: group.model,
      judge: group.judge,
      profile: comparabilityProfile(
        group.judge,
        group.rows,
        runIndexes(group.model, group.judge).map((index) => protocolOf(runs[index]!.manifest)),
        runIndexes(group.model, group.judge).map(
          (index) => runs[index]!.manifest?.dataset?.content_hash ?? 'unknown',
        ),
      ),
    })),
  );
  const summaries: GroupSummary[] = groups.map((group) => ({
    model: group.model,
    judge: group.judge,
    ...failureCounts(group.rows),
    correct: group.rows.filter(isCorrect).length,
    ok: group.rows.filter((row) => row.plannerStatus === 'ok' && row.judgeStatus === 'ok').length,
    failure_reasons: failureReasons(group.rows),
    tag: comparability.tags[groupKey(group.model, group.judge)] ?? 'A',
    runs: runIndexes(group.model, group.judge).map((index) => runs[index]!.dir),
  }));
  // Tokens and cost come from the manifests when every run of the group has one for exactly its model.
  const groupManifests = (model: string, judge: string) => {
    const manifests = runIndexes(model, judge).map((index) => runs[index]!.manifest);
    return manifests.every((manifest) => manifest?.identity?.tested_model === model)
      ? (manifests as Manifest[])
      : [];
  };
  const usage: UsageSection = {
    rows: summaries.map((group, index) =>
      usageRow(
        group.model,
        group.judge,
        groups[index]!.rows,
        group.correct,
        groupManifests(group.model, group.judge),
      ),
    ),
    endpoints: endpointsOf(runs.map((run) => run.manifest)),
    pricesAsOf:
      runs
        .map((run) => run.manifest?.usage?.prices_as_of)
        .find((date): date is string => typeof date === 'string') ?? null,
  };
  const runSummaries: RunSummary[] = runs.map((run, index) => ({
    dir: run.dir,
    source: run.manifest
      ? 'apb'
      : rowsByRun[index]!.some((row) => row.promptVersion !== null)
        ? 'apb-lines'
        : 'official',
    status: run.manifest?.status ?? null,
    dataset: run.manifest?.dataset?.path ?? null,
    datasetHash: run.manifest?.dataset?.content_hash ?? null,
    cases: new Set(rowsByRun[index]!.map((row) => `${row.facets.split}\u0000${row.id}`)).size,
    protocol: run.manifest ? protocolOf(run.manifest) : null,
    models: [...new Set(rowsByRun[index]!.map((row) => row.model))],
    judges: [...new Set(rowsByRun[index]!.map((row) => row.judge))],
    judgements: rowsByRun[index]!.length,
    issues: run.issues ?? [],
    tornLastLine: run.tornLastLine ?? null,
    duplicates: duplicates[index]!,
  }));
  return {
    title:
      options.title ??
      (runs.length === 1 ? `APB report: ${runs[0]!.dir}` : `APB leaderboard: ${runs.length} runs`),
    generatedAt: options.generatedAt ?? null,
    ciMethod: CI_METHOD,
    runs: runSummaries,
    groups: summaries,
    scorecard: scorecard(tables.table1),
    usage,
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
    ],
  };
}

/** Distinct cases per split over every row (the largest data any paper comparison speaks of). */
function casesPerSplit(rows: readonly ResultRow[]): Record<string, number> {
  const ids: Record<string, Set<string>> = {};
  for (const row of rows) (ids[row.facets.split] ??= new Set()).add(row.id);
  return Object.fromEntries(Object.entries(ids).map(([split, set]) => [split, set.size]));
}

function reportNotes(runs: readonly RunSummary[], comparability: Comparability): string[] {
  const notes: string[] = [];
  if (!comparability.comparable) {
    notes.push(
      `Not directly comparable: these rows differ in judge, dataset, protocol, or prompt versions on a split they share (sets ${comparability.classes.map((entry) => entry.tag).join(', ')}). Compare numbers only within one set.`,
    );
  }
  notes.push(...comparability.warnings);
  for (const run of runs) {
    if (run.duplicates > 0)
      notes.push(
        `${run.dir}: ${run.duplicates} judgement(s) ignored, already present in an earlier run (same model, judge, split, id and repeat).`,
      );
    if (run.issues.length > 0)
      notes.push(
        `${run.dir}: ${run.issues.length} unreadable judgement line(s), left out of every table.`,
      );
    if (run.tornLastLine !== null)
      notes.push(
        `${run.dir}: the last line (${run.tornLastLine}) is incomplete (a write in progress or cut short) and was skipped.`,
      );
    if (run.status === 'running')
      notes.push(
        `${run.dir}: the run is still in progress; the numbers cover the judgements written so far.`,
      );
  }
  return notes;
}
