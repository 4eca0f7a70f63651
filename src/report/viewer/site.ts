/**
 * What the viewer serves (I/O): for run directories, their report live at `/`; for folders to
 * search (`apb view runs/`), a history page at `/` listing every run directory and leaderboard
 * found below them (found again at each visit, so new runs appear), each served live at
 * `/runs/N/` or `/boards/N/` with its own status. Only these paths exist; the server adds the rest.
 */
import type { Limits } from '../../limits.js';
import path from 'node:path';
import { renderJson } from '../json.js';
import { discoverRunDirs, isRunDir } from './discover.js';
import { isExecDir } from './exec-history.js';
import { execSite } from './exec-site.js';
import { renderHistoryPage } from './history-page.js';
import { boardsOf, historyEntry, LineCounts } from './history.js';
import { LiveRuns } from './live-runs.js';

import type { Site } from './site-types.js';

export type { Served, Site } from './site-types.js';

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Options shared by every live report of a site. */
export interface LiveOptions {
  comparePaper?: boolean;
  minIntervalMs?: number;
  /** The caps the runs are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

/** One live report under `prefix` (`/` or `/runs/3/`): its page, status and JSON. */
function reportRoutes(live: LiveRuns, prefix: string, historyUrl: string | null): Site {
  return {
    async serve(pathname) {
      if (pathname === `${prefix}api/status`)
        return { type: JSON_TYPE, body: JSON.stringify(live.status()) };
      if (pathname === prefix) {
        await live.refresh();
        return { type: HTML, body: live.page(`${prefix}api/status`, historyUrl) };
      }
      if (pathname === `${prefix}api/report.json`) {
        await live.refresh();
        return { type: JSON_TYPE, body: renderJson(live.reportData()) };
      }
      return null;
    },
  };
}

/** The report of the given run directories, live at `/`. */
export async function reportSite(dirs: readonly string[], options: LiveOptions): Promise<Site> {
  const live = new LiveRuns(dirs, options);
  await live.refresh();
  return reportRoutes(live, '/', null);
}

/** True when every target is a run directory (or a judgements file): the viewer then serves their report. */
export function allRunDirs(targets: readonly string[]): boolean {
  return targets.every((target) => path.extname(target) === '.jsonl' || isRunDir(target));
}

/** The history of the run directories below `targets`, each run and leaderboard live under its own path. */
export function historySite(targets: readonly string[], options: LiveOptions): Site {
  const runs: string[] = [];
  const boards: string[][] = [];
  const sites = new Map<string, Promise<Site>>();
  const counts = new LineCounts();
  const rediscover = () => {
    for (const dir of targets.flatMap(discoverRunDirs)) if (!runs.includes(dir)) runs.push(dir);
    for (const board of boardsOf(runs.filter((dir) => !isExecDir(dir)))) {
      const known = boards.findIndex((entry) => path.dirname(entry[0]!) === board.dir);
      if (known < 0) boards.push(board.runs);
      else boards[known] = board.runs;
    }
  };
  const siteFor = (kind: 'runs' | 'boards', index: number, dirs: readonly string[]) => {
    const key = `${kind}/${index}`;
    if (!sites.has(key))
      sites.set(
        key,
        (async () => {
          if (kind === 'runs' && isExecDir(dirs[0]!))
            return execSite(dirs[0]!, { ...options, prefix: `/${key}/` });
          const live = new LiveRuns(dirs, options);
          await live.refresh();
          return reportRoutes(live, `/${key}/`, '/');
        })(),
      );
    return sites.get(key)!;
  };
  const shown = (dir: string) => path.relative(process.cwd(), dir) || dir;
  rediscover();
  return {
    async serve(pathname) {
      if (pathname === '/' || pathname === '/api/history.json') {
        rediscover();
        const entries = runs.map((dir) => historyEntry(dir, counts));
        if (pathname !== '/')
          return {
            type: JSON_TYPE,
            body: JSON.stringify({
              runs: entries,
              boards: boards.map((dirs) => ({ dir: path.dirname(dirs[0]!), runs: dirs })),
            }),
          };
        return {
          type: HTML,
          body: renderHistoryPage(
            boards.map((dirs) => ({ dir: path.dirname(dirs[0]!), runs: dirs })),
            entries,
            { title: `APB runs: ${targets.map(shown).join(', ')}`, shown },
          ),
        };
      }
      const match = /^\/(runs|boards)\/(\d+)\//.exec(pathname);
      if (!match) return null;
      const index = Number(match[2]);
      const dirs =
        match[1] === 'runs' ? (runs[index] ? [runs[index]!] : null) : (boards[index] ?? null);
      if (!dirs) return null;
      return (await siteFor(match[1] as 'runs' | 'boards', index, dirs)).serve(pathname);
    },
  };
}
