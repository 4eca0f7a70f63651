/** The exec run directory's outputs: `exec-scores.json`, `report.md` and `report.html` (the report's I/O edge). */
import type { Limits } from '../limits.js';
import { parseRunFileValue } from '../rundir/schemas/index.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import {
  computeExecScoresOf,
  type ExecScores,
  type ExecSource,
  type PriceOf,
} from '../execution/exec-scores.js';
import { floorPath } from '../execution/floor.js';
import type { ExecutionLine } from '../execution/records.js';
import { pricesAsOf } from '../pipeline/budget.js';
import { readJsonLines } from '../pipeline/results-store.js';
import { compareTable3 } from './exec-paper.js';
import { escapeHtml } from './escape.js';
import { compareToolSandbox } from './exec-toolsandbox.js';
import { execHtml, execMarkdown } from './exec-report.js';
import { PAPER_TABLES_FILE } from './load-runs.js';

/** An exec run directory's scores and both reports, rendered from its lines as they are now. */
export interface ExecReports {
  scores: ExecScores;
  /** The latest line of each (env, task, mode, trial), in task order. */
  lines: ExecutionLine[];
  markdown: string;
  html: string;
}

/** A run directory's line files, its floor included when it has one. */
function sourceOf(dir: string): ExecSource {
  return {
    plansPath: path.join(dir, 'plans.jsonl'),
    executionsPath: path.join(dir, 'executions.jsonl'),
    floorPath: floorPath(dir),
  };
}

/** Every execution line of the directories, the latest per (env, task, mode, trial), in a stable order. */
async function executionLines(
  dirs: readonly string[],
  limits: Limits | undefined,
): Promise<ExecutionLine[]> {
  const latest = new Map<string, ExecutionLine>();
  for (const dir of dirs) {
    const file = path.join(dir, 'executions.jsonl');
    for await (const { line: at, value } of readJsonLines(file, undefined, limits)) {
      const line = parseRunFileValue('executions', value, { file, line: at }) as ExecutionLine;
      latest.set(JSON.stringify([line.env, line.task_id, line.mode, line.trial]), line);
    }
  }
  return [...latest.values()].sort(
    (a, b) =>
      a.env.localeCompare(b.env) ||
      a.task_id.localeCompare(b.task_id, 'en', { numeric: true }) ||
      a.trial - b.trial ||
      a.mode.localeCompare(b.mode),
  );
}

/** Reads exec run directories (one, or one per environment of a pooled run) and renders their scores and reports. */
export async function renderExecReports(
  dir: string | readonly string[],
  priceOf: PriceOf,
  options: { comparePaper?: boolean; limits?: Limits | undefined } = {},
): Promise<ExecReports> {
  const dirs = typeof dir === 'string' ? [dir] : dir;
  const scores: ExecScores = {
    ...(await computeExecScoresOf(dirs.map(sourceOf), priceOf, options.limits)),
    prices_as_of: pricesAsOf(),
  };
  const lines = await executionLines(dirs, options.limits);
  const paperJson = options.comparePaper
    ? (JSON.parse(readFileSync(PAPER_TABLES_FILE, 'utf8')) as unknown)
    : undefined;
  // ToolSandbox's rows are compared with the paper's ToolSandbox rows, never with its τ²-bench ones.
  const tau2Rows = scores.tables.table3.filter((row) => row.env !== 'toolsandbox');
  const paper = paperJson && tau2Rows.length > 0 ? compareTable3(tau2Rows, paperJson) : undefined;
  const own = scores.tables.toolsandbox;
  const tsPaper = paperJson && own ? compareToolSandbox(own, paperJson) : undefined;
  const banners = dirs
    .map((one) =>
      execBanner(one, lines.filter((line) => dirs.length === 1 || line.env === envOf(one)).length),
    )
    .filter((banner): banner is string => banner !== null);
  const banner = banners.length > 0 ? banners.join(' ') : null;
  const html = execHtml(scores, lines, paper, tsPaper);
  return {
    scores,
    lines,
    markdown: `${banner ? `> **${banner}**\n\n` : ''}${execMarkdown(scores, paper, tsPaper, lines)}`,
    html: banner
      ? html.replace('<main>', `<main><p class="banner">${escapeHtml(banner)}</p>`)
      : html,
  };
}

/** The environment an exec run directory holds, from its manifest (null when it has none). */
function envOf(dir: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'exec-manifest.json'), 'utf8'));
    return (manifest.identity?.env ?? manifest.env ?? null) as string | null;
  } catch {
    return null;
  }
}

/** How each unfinished status of an exec run reads in its banner. */
const STATUS_WORDS: Record<string, string> = {
  running: 'is still running',
  interrupted: 'was interrupted',
  'stopped-budget': 'was stopped by its budget (--max-cost)',
  failed: 'failed',
};

/** The banner of an exec run that did not finish (its manifest's status, executions held of planned), else null. */
export function execBanner(dir: string, held: number): string | null {
  let status: string | null = null;
  let total: number | null = null;
  try {
    const model = path.join(dir, 'exec-manifest.json');
    const replay = path.join(dir, 'manifest.json');
    if (existsSync(model)) {
      const manifest = JSON.parse(readFileSync(model, 'utf8')) as {
        status?: string;
        executions?: { total?: number };
      };
      status = manifest.status ?? null;
      total = manifest.executions?.total ?? null;
    } else if (existsSync(replay)) {
      const manifest = JSON.parse(readFileSync(replay, 'utf8')) as {
        interrupted?: boolean;
        counts?: { tasks?: number };
      };
      status = manifest.interrupted ? 'interrupted' : 'complete';
    }
  } catch {
    return null;
  }
  if (status === null || status === 'complete') return null;
  const how = STATUS_WORDS[status] ?? `ended "${status}"`;
  const of = total ? ` of ${total}` : '';
  return `Unfinished exec run: ${dir} ${how}. It holds ${held}${of} execution(s); every number covers only those.`;
}

/**
 * Computes the scores of an exec run directory and writes its score file and reports; returns the scores.
 * With `sources`, the scores and reports in `dir` pool those run directories (a run over several environments).
 */
export async function writeExecOutputs(
  dir: string,
  priceOf: PriceOf,
  options: {
    comparePaper?: boolean;
    sources?: readonly string[];
    limits?: Limits | undefined;
  } = {},
): Promise<ExecScores> {
  const { scores, markdown, html } = await renderExecReports(
    options.sources ?? dir,
    priceOf,
    options,
  );
  writeFileAtomic(path.join(dir, 'exec-scores.json'), `${JSON.stringify(scores, null, 2)}\n`);
  writeFileAtomic(path.join(dir, 'report.md'), markdown);
  writeFileAtomic(path.join(dir, 'report.html'), html);
  return scores;
}
