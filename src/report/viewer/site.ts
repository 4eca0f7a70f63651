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

import type { Served, Site } from './site-types.js';

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
  const found: Found = { runs: [], boards: [] };
  const counts = new LineCounts();
  const siteFor = liveSites(options);
  rediscover(targets, found);
  return {
    async serve(pathname) {
      if (pathname === '/' || pathname === '/api/history.json') {
        rediscover(targets, found);
        return historyIndex(pathname, targets, found, counts);
      }
      const match = /^\/(runs|boards)\/(\d+)\//.exec(pathname);
      if (!match) return null;
      const index = Number(match[2]);
      const { runs, boards } = found;
      const dirs =
        match[1] === 'runs' ? (runs[index] ? [runs[index]!] : null) : (boards[index] ?? null);
      if (!dirs) return null;
      return (await siteFor(match[1] as 'runs' | 'boards', index, dirs)).serve(pathname);
    },
  };
}

/**
 * The run directories and leaderboards found so far, in the order found: a run's or a board's
 * index (its `/runs/N/` or `/boards/N/`) never changes while the site lives.
 */
interface Found {
  runs: string[];
  /** Each leaderboard's run directories (a folder of runs, by its first run's parent). */
  boards: string[][];
}

/** Searches the targets again: new run directories are added, a known board gets its runs anew. */
function rediscover(targets: readonly string[], found: Found): void {
  const { runs, boards } = found;
  for (const dir of targets.flatMap(discoverRunDirs)) if (!runs.includes(dir)) runs.push(dir);
  for (const board of boardsOf(runs.filter((dir) => !isExecDir(dir)))) {
    const known = boards.findIndex((entry) => path.dirname(entry[0]!) === board.dir);
    if (known < 0) boards.push(board.runs);
    else boards[known] = board.runs;
  }
}

/** Each run's and leaderboard's live site, made at its first visit and kept. */
function liveSites(
  options: LiveOptions,
): (kind: 'runs' | 'boards', index: number, dirs: readonly string[]) => Promise<Site> {
  const sites = new Map<string, Promise<Site>>();
  return (kind, index, dirs) => {
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
}

const shown = (dir: string) => path.relative(process.cwd(), dir) || dir;

/** The history page at `/`, or its data at `/api/history.json`. */
function historyIndex(
  pathname: string,
  targets: readonly string[],
  found: Found,
  counts: LineCounts,
): Served {
  const entries = found.runs.map((dir) => historyEntry(dir, counts));
  const boards = found.boards.map((dirs) => ({ dir: path.dirname(dirs[0]!), runs: dirs }));
  if (pathname !== '/') return { type: JSON_TYPE, body: JSON.stringify({ runs: entries, boards }) };
  return {
    type: HTML,
    body: renderHistoryPage(boards, entries, {
      title: `APB runs: ${targets.map(shown).join(', ')}`,
      shown,
    }),
  };
}
