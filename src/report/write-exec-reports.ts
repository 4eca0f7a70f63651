/** The exec run directory's outputs: `exec-scores.json`, `report.md` and `report.html` (the report's I/O edge). */
import { parseRunFileValue } from '../rundir/schemas/index.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { computeExecScores, type ExecScores, type PriceOf } from '../execution/exec-scores.js';
import type { ExecutionLine } from '../execution/records.js';
import { readJsonLines } from '../pipeline/results-store.js';
import { compareTable3 } from './exec-paper.js';
import { compareToolSandbox } from './exec-toolsandbox.js';
import { execHtml, execMarkdown } from './exec-report.js';
import { PAPER_TABLES_FILE } from './load-runs.js';

/** An exec run directory's scores and both reports, rendered from its lines as they are now. */
export interface ExecReports {
  scores: ExecScores;
  markdown: string;
  html: string;
}

/** Reads an exec run directory (`plans.jsonl`, `executions.jsonl`) and renders its scores and reports. */
export async function renderExecReports(
  dir: string,
  priceOf: PriceOf,
  options: { comparePaper?: boolean } = {},
): Promise<ExecReports> {
  const executions = path.join(dir, 'executions.jsonl');
  const scores = await computeExecScores(path.join(dir, 'plans.jsonl'), executions, priceOf);
  const latest = new Map<string, ExecutionLine>();
  for await (const { line: at, value } of readJsonLines(executions)) {
    const line = parseRunFileValue('executions', value, {
      file: executions,
      line: at,
    }) as ExecutionLine;
    latest.set(JSON.stringify([line.task_id, line.mode, line.trial]), line);
  }
  const lines = [...latest.values()].sort(
    (a, b) =>
      a.task_id.localeCompare(b.task_id, 'en', { numeric: true }) ||
      a.trial - b.trial ||
      a.mode.localeCompare(b.mode),
  );
  const paperJson = options.comparePaper
    ? (JSON.parse(readFileSync(PAPER_TABLES_FILE, 'utf8')) as unknown)
    : undefined;
  // ToolSandbox's rows are compared with the paper's ToolSandbox rows, never with its τ²-bench ones.
  const tau2Rows = scores.tables.table3.filter((row) => row.env !== 'toolsandbox');
  const paper = paperJson && tau2Rows.length > 0 ? compareTable3(tau2Rows, paperJson) : undefined;
  const own = scores.tables.toolsandbox;
  const tsPaper = paperJson && own ? compareToolSandbox(own, paperJson) : undefined;
  return {
    scores,
    markdown: execMarkdown(scores, paper, tsPaper),
    html: execHtml(scores, lines, paper, tsPaper),
  };
}

/** Computes the scores of an exec run directory and writes its score file and reports; returns the scores. */
export async function writeExecOutputs(
  dir: string,
  priceOf: PriceOf,
  options: { comparePaper?: boolean } = {},
): Promise<ExecScores> {
  const { scores, markdown, html } = await renderExecReports(dir, priceOf, options);
  writeFileAtomic(path.join(dir, 'exec-scores.json'), `${JSON.stringify(scores, null, 2)}\n`);
  writeFileAtomic(path.join(dir, 'report.md'), markdown);
  writeFileAtomic(path.join(dir, 'report.html'), html);
  return scores;
}
