/**
 * Report writers (I/O): load runs, build `ReportData`, render and write. `writeRunReports(dir)`
 * writes report.md and report.html into a run directory (called at the end of `apb run`).
 */
import type { Limits } from '../limits.js';
import { createAtomicWriter, writeFileAtomic } from '../atomic-write.js';
import path from 'node:path';
import { FORMATS, type FormatId } from './formats.js';
import { renderHtmlParts } from './html.js';
import { collectMedia, loadRun, readPaperTables } from './load-runs.js';
import { buildReportData, type ReportData, type ReportRunInput } from './report-data.js';
import type { HeadlineKey } from './scorecard.js';

/** Options of `loadReportData`. */
export interface LoadReportOptions {
  /** Include the case browser (lines, images). */
  caseBrowser?: boolean;
  comparePaper?: boolean;
  /** Keep going past unreadable lines (reported as notes) instead of failing. */
  lenient?: boolean;
  /** The caps the run files are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
  now?: Date;
  title?: string;
  /** Runs computed in memory and shown beside the loaded ones (a default run's reference points). */
  extraRuns?: readonly ReportRunInput[];
  /** The headline the scorecard is ranked by (default holistic CR). */
  rankBy?: HeadlineKey;
}

/** Reads the run directories and builds the report data. */
export async function loadReportData(
  dirs: readonly string[],
  options: LoadReportOptions = {},
): Promise<ReportData> {
  const runs = [];
  for (const dir of dirs)
    runs.push(
      await loadRun(dir, {
        lines: options.caseBrowser,
        lenient: options.lenient,
        limits: options.limits,
      }),
    );
  runs.push(...(options.extraRuns ?? []));
  return buildReportData(runs, {
    ...(options.title ? { title: options.title } : {}),
    generatedAt: (options.now ?? new Date()).toISOString(),
    paper: options.comparePaper ? readPaperTables() : null,
    caseBrowser: options.caseBrowser,
    media: options.caseBrowser ? collectMedia(runs) : new Map(),
    ...(options.rankBy ? { rankBy: options.rankBy } : {}),
  });
}

/** Renders one format; CSV gives several files (name → text), every other format one text. */
export function renderFormat(data: ReportData, format: FormatId): string | Record<string, string> {
  return FORMATS[format](data);
}

/**
 * Writes the HTML report to `file` part by part (atomically: a reader never sees half of it), so
 * the page — tens of MB for a large run — is never one string in memory.
 */
export function writeHtmlReport(file: string, data: ReportData): void {
  const writer = createAtomicWriter(file);
  try {
    for (const part of renderHtmlParts(data)) writer.write(part);
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
}

/** Writes report.md and report.html into a run directory; returns their paths. */
/** The files a report writer wrote, and the data they were rendered from (the end-of-run summary reads it). */
export interface WrittenReports {
  markdown: string;
  html: string;
  data: ReportData;
}

export async function writeRunReports(
  dir: string,
  options: { now?: Date; extraRuns?: readonly ReportRunInput[]; limits?: Limits | undefined } = {},
): Promise<WrittenReports> {
  const data = await loadReportData([dir], { caseBrowser: true, lenient: true, ...options });
  const markdown = path.join(dir, 'report.md');
  const html = path.join(dir, 'report.html');
  writeFileAtomic(markdown, FORMATS.md(data));
  writeHtmlReport(html, data);
  return { markdown, html, data };
}

/** Writes `leaderboard.md` and `leaderboard.html` into `root` for the run directories of a several-model run. */
export async function writeLeaderboard(
  root: string,
  dirs: readonly string[],
  options: { now?: Date; rankBy?: HeadlineKey; limits?: Limits | undefined } = {},
): Promise<WrittenReports> {
  const data = await loadReportData(dirs, {
    caseBrowser: true,
    lenient: true,
    title: `APB leaderboard: ${path.basename(root)}`,
    ...options,
  });
  const markdown = path.join(root, 'leaderboard.md');
  const html = path.join(root, 'leaderboard.html');
  writeFileAtomic(markdown, FORMATS.md(data));
  writeHtmlReport(html, data);
  return { markdown, html, data };
}
