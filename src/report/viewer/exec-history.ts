/**
 * Exec run directories in the viewer's history (I/O): which directories `apb exec` wrote — a model run's
 * `exec-manifest.json`, or a replay's `manifest.json` whose `command` is `exec` — and their history entry:
 * agent model, NL/plan judge, environment, start, status, executions on disk and a headline (the best mode's
 * mean reward, from `exec-scores.json` when it is there, else counted from `executions.jsonl`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HistoryEntry } from './history-entry.js';

/** The mode columns of Table 3 as the headline names them. */
const MODE_LABELS = { direct: 'direct', plan_first: 'plan-first', refine: 'refine' } as const;

function readJson(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** True for a replay's directory: a `manifest.json` written by `apb exec --agent replay:…`. */
export function isReplayDir(dir: string): boolean {
  const file = path.join(dir, 'manifest.json');
  return existsSync(file) && readJson(file)?.command === 'exec';
}

/** True for a directory `apb exec` wrote: a model run (`exec-manifest.json`) or a replay. */
export function isExecDir(dir: string): boolean {
  return existsSync(path.join(dir, 'exec-manifest.json')) || isReplayDir(dir);
}

/** The best mode's mean reward in exec-scores.json's Table 3 (the first row), or null. */
function scoresHeadline(dir: string): HistoryEntry['headline'] {
  const scores = readJson(path.join(dir, 'exec-scores.json'));
  const tables = scores?.tables as { table3?: Record<string, unknown>[] } | undefined;
  const row = tables?.table3?.[0];
  if (!row) return null;
  let best: HistoryEntry['headline'] = null;
  for (const [key, label] of Object.entries(MODE_LABELS)) {
    const value = row[key];
    if (typeof value === 'number' && (best === null || value > best.value))
      best = { label: `${label} reward`, value, unit: 'reward' };
  }
  return best;
}

/** A replay's headline: its mean reward over the executions with one (from the manifest's counts). */
function replayHeadline(counts: Record<string, unknown> | undefined): HistoryEntry['headline'] {
  const one = Number(counts?.rewardOne ?? 0);
  const zero = Number(counts?.rewardZero ?? 0);
  if (!(one + zero > 0)) return null;
  return { label: 'replay reward', value: one / (one + zero), unit: 'reward' };
}

/** The history entry of an exec run directory (model run or replay). */
/** `countLines` counts a file's complete lines (the history's incremental counter). */
export function execHistoryEntry(dir: string, countLines: (file: string) => number): HistoryEntry {
  const done = countLines(path.join(dir, 'executions.jsonl'));
  const model = readJson(path.join(dir, 'exec-manifest.json'));
  if (model) {
    const identity = (model.identity ?? {}) as Record<string, unknown>;
    const executions = (model.executions ?? {}) as Record<string, unknown>;
    return {
      dir,
      kind: 'exec',
      model: typeof identity.model === 'string' ? identity.model : null,
      judge: typeof identity.judge === 'string' ? identity.judge : null,
      data: typeof identity.env === 'string' ? identity.env : null,
      created: typeof model.started_at === 'string' ? model.started_at : null,
      status: typeof model.status === 'string' ? model.status : 'unknown',
      done,
      total: typeof executions.total === 'number' ? executions.total : null,
      etaSeconds: null,
      headline: scoresHeadline(dir),
    };
  }
  const replay = readJson(path.join(dir, 'manifest.json')) ?? {};
  const counts = replay.counts as Record<string, unknown> | undefined;
  return {
    dir,
    kind: 'exec',
    model: typeof replay.agent === 'string' ? replay.agent : null,
    judge: typeof replay.nl_judge === 'string' ? replay.nl_judge : null,
    data: typeof replay.env === 'string' ? replay.env : null,
    created: typeof replay.started_at === 'string' ? replay.started_at : null,
    status: replay.interrupted === true ? 'interrupted' : 'complete',
    done,
    total: typeof counts?.tasks === 'number' ? counts.tasks : null,
    etaSeconds: null,
    headline: replayHeadline(counts),
  };
}
