/** `apb report RUN_DIR... [--out FILE] [--format md|csv|json|html] [--compare-paper]`: one run or a leaderboard. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { HEADLINE_CSV } from '../../report/csv.js';
import { FORMATS, type FormatId } from '../../report/formats.js';
import { writeFileAtomic } from '../../atomic-write.js';
import { loadReportData, renderFormat, writeHtmlReport } from '../../report/write-reports.js';
import { costOfCall } from '../../pipeline/budget.js';
import { loadExecBoard, renderExecBoard } from '../../report/exec-board.js';
import { isExecDir } from '../../report/viewer/exec-history.js';
import { limitHeapGrowth } from '../heap.js';
import type { CommandOutcome } from '../outcome.js';
import { choice } from '../options.js';
import { parseRankBy, RANK_BY_HELP } from '../rank-by.js';
import type { HeadlineKey } from '../../report/scorecard.js';
import { say } from '../terminal.js';
import { registerViewCommand } from './view.js';

interface ReportOptions {
  out?: string;
  rankBy?: HeadlineKey;
  format: FormatId;
  comparePaper: boolean;
}

/** Registers `apb report` and its sibling `apb view` (the same report, served live). */
export function registerReportCommand(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  program
    .command('report')
    .description(
      "the paper's tables, figures and a case browser from one run or several (one row per model and judge)",
    )
    .argument(
      '<run-dirs...>',
      'run directories (an official-harness judgements.jsonl alone is enough), or apb exec run directories (a Table 3 leaderboard)',
    )
    .option(
      '--out <file>',
      'write to FILE instead of stdout (csv: a DIR gets every table, FILE.csv the scorecard)',
    )
    .option(
      '--format <format>',
      `${Object.keys(FORMATS).join(', ')}`,
      choice(Object.keys(FORMATS) as FormatId[]),
      'md',
    )
    .option(
      '--compare-paper',
      "put the paper's published numbers beside ours for models the paper reports",
      false,
    )
    .option('--rank-by <metric>', RANK_BY_HELP, parseRankBy)
    .action((dirs: string[], options: ReportOptions) =>
      reportAction(dirs, options, outcome, limits),
    );
  registerViewCommand(program, outcome, limits);
}

/** `apb report RUN_DIR...`: the runs read under `limits`, rendered in one format. */
async function reportAction(
  dirs: string[],
  options: ReportOptions,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  const format = options.format;
  limitHeapGrowth();
  if (dirs.some(isExecDir)) return execBoard(dirs, options, outcome, limits);
  const data = await loadReportData(dirs, {
    caseBrowser: format === 'html',
    comparePaper: options.comparePaper,
    ...(options.rankBy ? { rankBy: options.rankBy } : {}),
    limits,
  });
  if (format === 'html' && options.out) {
    // Streamed to the file: a large run's page is never one string in memory.
    writeHtmlReport(options.out, data);
    say(`apb: wrote ${options.out}`);
    for (const note of data.notes) say(`apb: note: ${note}`);
    outcome.exitCode = 0;
    return;
  }
  const rendered = renderFormat(data, format);
  if (typeof rendered !== 'string') {
    writeCsv(rendered, options.out);
  } else if (options.out) {
    writeFileAtomic(options.out, rendered);
    say(`apb: wrote ${options.out}`);
  } else {
    process.stdout.write(rendered);
  }
  for (const note of data.notes) say(`apb: note: ${note}`);
  outcome.exitCode = 0;
}

/**
 * CSV's three places: `--out DIR` gets every table, one file each; stdout and `--out FILE.csv` (not
 * an existing directory) get the scorecard alone, since a CSV file holds one table.
 */
function writeCsv(files: Record<string, string>, out: string | undefined): void {
  const count = Object.keys(files).length;
  const single = !out || (/\.csv$/i.test(out) && !isDirectory(out));
  if (!single) {
    for (const [name, text] of Object.entries(files)) writeFileAtomic(path.join(out, name), text);
    say(`apb: wrote ${count} CSV file(s) to ${out}`);
    return;
  }
  const text = files[HEADLINE_CSV] ?? '';
  if (out) writeFileAtomic(out, text);
  else process.stdout.write(text);
  say(
    `apb: ${out ? `wrote ${out}: ` : ''}the scorecard only; --out DIR writes all ${count} tables`,
  );
}

const isDirectory = (file: string) => existsSync(file) && statSync(file).isDirectory();

/** `apb report EXEC_DIR...`: the Table 3 leaderboard of exec run directories (model runs and replays). */
async function execBoard(
  dirs: string[],
  options: ReportOptions,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  const other = dirs.find((dir) => !isExecDir(dir));
  if (other)
    throw new UsageError(
      `${other} is not an apb exec run directory: report exec runs and APB runs separately`,
    );
  const runs = await loadExecBoard(dirs, costOfCall, {
    comparePaper: options.comparePaper,
    limits,
  });
  const shown = (dir: string) => path.relative(process.cwd(), dir) || dir;
  const text = renderExecBoard(runs, options.format, shown);
  if (options.out) {
    writeFileAtomic(options.out, text);
    say(`apb: wrote ${options.out}`);
  } else process.stdout.write(text);
  outcome.exitCode = 0;
}
