/** The exec run directory's outputs: `exec-scores.json`, `report.md` and `report.html` (the report's I/O edge). */
import { parseRunFileValue } from '../rundir/schemas/index.js';
import { readFileSync } from 'node:fs';
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
import { readJsonLines } from '../pipeline/results-store.js';
import { compareTable3 } from './exec-paper.js';
import { execHtml, execMarkdown } from './exec-report.js';
import { PAPER_TABLES_FILE } from './load-runs.js';

/** An exec run directory's scores and both reports, rendered from its lines as they are now. */
export interface ExecReports {
  scores: ExecScores;
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
async function executionLines(dirs: readonly string[]): Promise<ExecutionLine[]> {
  const latest = new Map<string, ExecutionLine>();
  for (const dir of dirs) {
    const file = path.join(dir, 'executions.jsonl');
    for await (const { line: at, value } of readJsonLines(file)) {
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
  options: { comparePaper?: boolean } = {},
): Promise<ExecReports> {
  const dirs = typeof dir === 'string' ? [dir] : dir;
  const scores = await computeExecScoresOf(dirs.map(sourceOf), priceOf);
  const lines = await executionLines(dirs);
  const paper = options.comparePaper
    ? compareTable3(scores.tables.table3, JSON.parse(readFileSync(PAPER_TABLES_FILE, 'utf8')))
    : undefined;
  return { scores, markdown: execMarkdown(scores, paper), html: execHtml(scores, lines, paper) };
}

/**
 * Computes the scores of an exec run directory and writes its score file and reports; returns the scores.
 * With `sources`, the scores and reports in `dir` pool those run directories (a run over several environments).
 */
export async function writeExecOutputs(
  dir: string,
  priceOf: PriceOf,
  options: { comparePaper?: boolean; sources?: readonly string[] } = {},
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
