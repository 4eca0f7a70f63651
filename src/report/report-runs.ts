/**
 * What the report says about each run directory (source, status, dataset, cases, issues) and the
 * caveats about the runs (duplicates, unreadable or torn lines, sets that are not comparable). Pure.
 */
import type { ResultRow } from '../metrics/result-row.js';
import type { Manifest } from '../pipeline/manifest.js';
import type { Comparability } from './comparability.js';
import type { JudgeSections } from '../pipeline/judge-sections.js';
import type { InputIssue } from '../errors.js';
import type { LineWithRow } from './cases.js';

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
  /** The cases the run selected (its manifest's count), null without a manifest. */
  plannedCases: number | null;
  protocol: string | null;
  models: string[];
  judges: string[];
  judgements: number;
  issues: InputIssue[];
  tornLastLine: number | null;
  /** Judgements ignored because an earlier run already had the same (model, judge, split, id, repeat). */
  duplicates: number;
}

/** The protocol a manifest records ("unknown" without one), with blind judging noted. */
export function protocolOf(manifest: Manifest | null): string {
  if (!manifest) return 'unknown';
  return `${manifest.identity?.protocol ?? 'unknown'}${manifest.identity?.judge_blind ? ' (blind judge)' : ''}`;
}

/** One summary per run, from its input and the rows kept of it. */
export function summarizeRuns(
  runs: readonly ReportRunInput[],
  rowsByRun: readonly ResultRow[][],
  duplicates: readonly number[],
): RunSummary[] {
  return runs.map((run, index) => ({
    dir: run.dir,
    source: run.manifest
      ? 'apb'
      : rowsByRun[index]!.some((row) => row.promptVersion !== null)
        ? 'apb-lines'
        : 'official',
    status: run.manifest?.status ?? null,
    dataset: run.manifest?.dataset?.path ?? null,
    datasetHash: run.manifest?.dataset?.content_hash ?? null,
    plannedCases: run.manifest?.counts?.cases ?? null,
    cases: new Set(rowsByRun[index]!.map((row) => `${row.facets.split}\u0000${row.id}`)).size,
    protocol: run.manifest ? protocolOf(run.manifest) : null,
    models: [...new Set(rowsByRun[index]!.map((row) => row.model))],
    judges: [...new Set(rowsByRun[index]!.map((row) => row.judge))],
    judgements: rowsByRun[index]!.length,
    issues: run.issues ?? [],
    tornLastLine: run.tornLastLine ?? null,
    duplicates: duplicates[index]!,
  }));
}

/** The caveats about the runs and their comparability, in every format. */
export function reportNotes(runs: readonly RunSummary[], comparability: Comparability): string[] {
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
  }
  return notes;
}
