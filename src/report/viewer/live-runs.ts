/**
 * The viewer's live view of run directories (I/O): the page polls a cheap status (file sizes and
 * mtimes) and, when the files changed, reloads; a reload re-reads the changed runs' judgements.jsonl
 * and manifest, at most once per interval (twice the last read's duration, at least
 * `minIntervalMs`), so watching a large running evaluation does not re-read it continuously.
 */
import type { Limits } from '../../limits.js';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { renderHtml } from '../html.js';
import { collectMedia, judgementsFileOf, loadRun, readPaperTables } from '../load-runs.js';
import { buildReportData, type ReportData, type ReportRunInput } from '../report-data.js';
import { historyEntry, LineCounts } from './history.js';

/** What the page polls: a version that changes with the files, and how many judgements there are. */
export interface LiveStatus {
  version: string;
  /** Judgements in the data as last read (a newer version on disk may hold more). */
  judgements: number;
  running: boolean;
  /** For running runs: judgements on disk, the total they selected, and the estimated seconds left (summed / the longest). */
  progress: { done: number; total: number | null; eta_seconds: number | null } | null;
}

function signature(dir: string): string {
  const parts = ['judgements.jsonl', 'manifest.json'].map((name) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) return `${name}:-`;
    const stat = statSync(file);
    return `${name}:${stat.size}:${stat.mtimeMs}`;
  });
  return parts.join('|');
}

const versionOf = (signatures: readonly string[]) =>
  createHash('sha256').update(signatures.join('\n')).digest('hex').slice(0, 16);

/** Run directories read live; `refresh()` re-reads what changed, `page()` renders the current data. */
export class LiveRuns {
  private runs: (ReportRunInput | null)[];
  private signatures: string[];
  private data: ReportData | null = null;
  private html: string | null = null;
  private refreshing: Promise<void> | null = null;
  private lastCheck = 0;
  private lastReadMs = 0;
  private readonly lines = new LineCounts();

  constructor(
    private readonly dirs: readonly string[],
    private readonly options: {
      comparePaper?: boolean;
      minIntervalMs?: number;
      now?: () => Date;
      limits?: Limits | undefined;
    } = {},
  ) {
    for (const dir of dirs) {
      const hasManifest = existsSync(path.join(dir, 'manifest.json'));
      if (!hasManifest) judgementsFileOf(dir);
      else if (!statSync(dir).isDirectory()) throw new UsageError(`not a run directory: ${dir}`);
    }
    this.runs = dirs.map(() => null);
    this.signatures = dirs.map(() => '');
  }

  /** Re-reads every run whose files changed since the last read (throttled, see the file comment). */
  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    const interval = Math.max(this.options.minIntervalMs ?? 1000, 2 * this.lastReadMs);
    if (Date.now() - this.lastCheck < interval && this.data) return Promise.resolve();
    const started = Date.now();
    this.refreshing = this.reread().finally(() => {
      this.refreshing = null;
      this.lastCheck = Date.now();
      this.lastReadMs = this.lastCheck - started;
    });
    return this.refreshing;
  }

  private async reread(): Promise<void> {
    let changed = false;
    for (const [index, dir] of this.dirs.entries()) {
      const now = signature(dir);
      if (now === this.signatures[index] && this.runs[index]) continue;
      this.signatures[index] = now;
      const hasJudgements =
        existsSync(path.join(dir, 'judgements.jsonl')) || statSync(dir).isFile();
      this.runs[index] = hasJudgements
        ? await loadRun(dir, { lines: true, lenient: true, limits: this.options.limits })
        : { dir, rows: [], lines: [], manifest: null };
      changed = true;
    }
    if (changed || !this.data) {
      const runs = this.runs.filter((run): run is ReportRunInput => run !== null);
      this.data = buildReportData(runs, {
        generatedAt: (this.options.now?.() ?? new Date()).toISOString(),
        paper: this.options.comparePaper ? readPaperTables() : null,
        caseBrowser: true,
        media: collectMedia(runs),
      });
      this.html = null;
    }
  }

  /** The version of the data as last read. */
  version(): string {
    return versionOf(this.signatures);
  }

  /** The status for the page's poll: the version of the files on disk now (no re-read), and what the last read found. */
  status(): LiveStatus {
    const runs = this.runs.filter((run): run is ReportRunInput => run !== null);
    const live = this.dirs
      .filter((dir) => existsSync(path.join(dir, 'manifest.json')))
      .map((dir) => historyEntry(dir, this.lines))
      .filter((entry) => entry.status === 'running');
    const totals = live.map((entry) => entry.total);
    return {
      version: versionOf(this.dirs.map(signature)),
      judgements: this.data?.runs.reduce((sum, run) => sum + run.judgements, 0) ?? 0,
      running: runs.some((run) => run.manifest?.status === 'running') || live.length > 0,
      progress:
        live.length === 0
          ? null
          : {
              done: live.reduce((sum, entry) => sum + entry.done, 0),
              total: totals.every((total) => total !== null)
                ? totals.reduce((sum, total) => sum! + total!, 0)
                : null,
              eta_seconds: live.some((entry) => entry.etaSeconds === null)
                ? null
                : Math.max(...live.map((entry) => entry.etaSeconds!)),
            },
    };
  }

  /** The current report data (after at least one refresh). */
  reportData(): ReportData {
    if (!this.data) throw new Error('LiveRuns.reportData() before refresh()');
    return this.data;
  }

  /** The viewer page for the current data, rendered once per version. */
  page(statusUrl: string, historyUrl: string | null = null): string {
    this.html ??= renderHtml(this.reportData(), {
      live: { statusUrl, version: this.version(), ...(historyUrl ? { historyUrl } : {}) },
    });
    return this.html;
  }
}
