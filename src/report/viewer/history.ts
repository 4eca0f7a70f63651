/**
 * The viewer's history (I/O): what `apb view runs/` lists for each run directory found below a
 * folder — model, judge, data, date, status, headline CR — and for a running one "N of M, ETA".
 * Cheap to poll: it reads manifests and scores.json, and counts judgement lines incrementally
 * (only the bytes appended since the last count are read).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { readManifest, type Manifest } from '../../pipeline/manifest.js';
import { execHistoryEntry, isExecDir } from './exec-history.js';
import type { HistoryEntry } from './history-entry.js';

export type { HistoryEntry } from './history-entry.js';

/** A leaderboard: a folder holding leaderboard.html and the run directories of its models. */
export interface BoardEntry {
  dir: string;
  runs: string[];
}

/** Counts the lines of growing files, reading only what was appended since the last count. */
export class LineCounts {
  private readonly known = new Map<string, { size: number; lines: number }>();

  /** Complete lines of `file` (0 when it does not exist). */
  count(file: string): number {
    if (!existsSync(file)) return 0;
    const size = statSync(file).size;
    const before = this.known.get(file);
    let { size: from, lines } = before && before.size <= size ? before : { size: 0, lines: 0 };
    if (from < size) {
      const handle = openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(1 << 16);
        while (from < size) {
          const read = readSync(handle, buffer, 0, Math.min(buffer.length, size - from), from);
          if (read <= 0) break;
          for (let index = 0; index < read; index += 1) if (buffer[index] === 10) lines += 1;
          from += read;
        }
      } finally {
        closeSync(handle);
      }
    }
    this.known.set(file, { size: from, lines });
    return lines;
  }
}

function headlineOf(dir: string): HistoryEntry['headline'] {
  const file = path.join(dir, 'scores.json');
  if (!existsSync(file)) return null;
  try {
    const row = (
      JSON.parse(readFileSync(file, 'utf8')) as {
        tables?: { table1?: Record<string, { cr?: number | null; n?: number }>[] };
      }
    ).tables?.table1?.[0];
    if (!row) return null;
    for (const [key, label] of [
      ['holistic', 'holistic CR'],
      ['step_wise', 'step-wise CR'],
      ['tool_extraneous', 'tool-extraneous CR'],
    ] as const) {
      const value = row[key]?.cr;
      if (typeof value === 'number' && (row[key]?.n ?? 0) > 0) return { label, value };
    }
    return null;
  } catch {
    return null;
  }
}

function manifestOf(dir: string): Manifest | null {
  try {
    return readManifest(dir);
  } catch {
    return null;
  }
}

/** The ETA of a running run: its pace since this invocation started, over what is left. */
export function etaOf(done: number, progress: Manifest['progress'], now: number): number | null {
  if (!progress) return null;
  const made = done - progress.already_done;
  const elapsed = (now - Date.parse(progress.started_at)) / 1000;
  if (made <= 0 || !(elapsed > 0)) return null;
  return Math.max(0, Math.round(((progress.total - done) * elapsed) / made));
}

/** The history entry of one run directory. */
export function historyEntry(dir: string, lines: LineCounts, now = Date.now()): HistoryEntry {
  if (isExecDir(dir)) return execHistoryEntry(dir, (file) => lines.count(file));
  const manifest = manifestOf(dir);
  const done = lines.count(path.join(dir, 'judgements.jsonl'));
  const status = manifest?.status ?? 'no manifest';
  const running = status === 'running';
  const total = manifest?.progress?.total ?? (manifest && !running ? manifest.counts.cases : null);
  return {
    dir,
    model: manifest?.identity?.tested_model ?? null,
    judge: manifest?.identity?.judges?.join(' + ') ?? null,
    data: manifest?.dataset
      ? `${path.basename(manifest.dataset.path)} (${manifest.dataset.content_hash.slice(0, 8)})`
      : null,
    created: manifest?.created_at ?? null,
    status,
    done,
    total,
    etaSeconds: running ? etaOf(done, manifest?.progress, now) : null,
    headline: headlineOf(dir),
  };
}

/** The leaderboards among the given run directories: each folder holding leaderboard.html with its runs below it. */
export function boardsOf(dirs: readonly string[]): BoardEntry[] {
  const boards = new Map<string, string[]>();
  for (const dir of dirs) {
    const parent = path.dirname(dir);
    if (existsSync(path.join(parent, 'leaderboard.html')))
      boards.set(parent, [...(boards.get(parent) ?? []), dir]);
  }
  return [...boards].map(([dir, runs]) => ({ dir, runs }));
}
