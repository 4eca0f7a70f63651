/**
 * `apb view EXEC_DIR` (I/O): an exec run directory's report — Table 3, pass^k, terminations, usage, the case
 * browser — served at `/` and its scores at `/api/exec-scores.json`, rendered again from the lines whenever
 * `plans.jsonl` or `executions.jsonl` changed, so reloading the page follows a running `apb exec`.
 */
import type { Limits } from '../../limits.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { costOfCall } from '../../pipeline/budget.js';
import { renderExecReports, type ExecReports } from '../write-exec-reports.js';
import { isExecDir } from './exec-history.js';
import type { Site } from './site-types.js';

const FILES = ['plans.jsonl', 'executions.jsonl'];

/** True for a directory `apb exec` wrote: a model run (its exec-manifest.json) or a replay (exec-history.ts). */
export function isExecRunDir(dir: string): boolean {
  return isExecDir(dir);
}

function signature(dir: string): string {
  return FILES.map((name) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) return `${name}:-`;
    const stat = statSync(file);
    return `${name}:${stat.size}:${stat.mtimeMs}`;
  }).join('|');
}

/** The live report of one exec run directory, at `prefix` (`/`, or `/runs/N/` in a history). */
export function execSite(
  dir: string,
  options: { comparePaper?: boolean; prefix?: string; limits?: Limits | undefined } = {},
): Site {
  const prefix = options.prefix ?? '/';
  let rendered: { signature: string; reports: Promise<ExecReports> } | null = null;
  const current = () => {
    const now = signature(dir);
    if (rendered?.signature !== now)
      rendered = { signature: now, reports: renderExecReports(dir, costOfCall, options) };
    return rendered.reports;
  };
  return {
    async serve(pathname) {
      if (pathname === prefix)
        return { type: 'text/html; charset=utf-8', body: (await current()).html };
      if (pathname === `${prefix}api/exec-scores.json`)
        return {
          type: 'application/json; charset=utf-8',
          body: JSON.stringify((await current()).scores),
        };
      return null;
    },
  };
}
