/** `apb data validate DIR`: every problem of a dataset (schema and the B.2 rule check) as FILE:LINE: field: message; exit 1 if any error. */
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Command } from 'commander';
import path from 'node:path';
import { APB_DATASET_REPO, prepareDataset } from '../../dataset/prepare.js';
import { SPLITS, type Case } from '../../dataset/case.js';
import { readCases, resolveDatasetDir } from '../../dataset/read-cases.js';
import { ruleCheck } from '../../dataset/rule-check.js';
import { unknownDataFileWarnings } from '../../dataset/layout.js';
import { formatIssue } from '../../errors.js';
import type { CommandOutcome } from '../outcome.js';
import { positiveInt } from '../options.js';
import { LargestFiles } from '../../dataset/largest-files.js';
import { say } from '../terminal.js';
import { registerDataStats } from './data-stats.js';

/** The flags of `apb data prepare`. */
interface PrepareFlags {
  out: string;
  repo: string;
  revision: string;
  stallTimeoutMs: number;
  minRate: number;
  deadlineMs: number;
  allowUnverified?: boolean;
}

export function registerDataCommands(
  program: Command,
  outcome: CommandOutcome,
  limits: Limits = DEFAULT_LIMITS,
): void {
  const data = program.command('data').description('work with datasets in the released layout');
  registerDataStats(data, outcome, limits);
  data
    .command('validate')
    .argument('<dir>', 'dataset directory (DIR/data/{split}.jsonl), or "sample"')
    .description(
      'check every record and apply the rule check (paper B.2); print each problem as FILE:LINE: field: message',
    )
    .option('--no-warnings', 'print rule-check errors only (warnings are still counted)')
    .action((dir: string, options: { warnings: boolean }) =>
      validateAction(dir, { ...options, limits }, outcome),
    );
  data
    .command('prepare')
    .description(
      'download the released dataset (honours HF_ENDPOINT and HF_TOKEN) and extract its assets',
    )
    .option('--out <dir>', 'where to put it', 'apb-dataset')
    .option('--repo <id>', 'Hugging Face dataset repository', APB_DATASET_REPO)
    .option('--revision <rev>', 'branch, tag or commit', 'main')
    .option(
      '--stall-timeout-ms <n>',
      'abandon a download that sends nothing for this long',
      positiveInt,
      30_000,
    )
    .option(
      '--min-rate <bytes>',
      'abandon a download slower than this (bytes/s over 60 s)',
      positiveInt,
      1024,
    )
    .option(
      '--deadline-ms <n>',
      'stop when the whole download takes longer',
      positiveInt,
      21_600_000,
    )
    .option('--allow-unverified', 'download files the listing gives no size for (unchecked)')
    .action((options: PrepareFlags) => prepareAction(options, outcome, limits));
}

/** `apb data prepare`: downloads the released dataset and says what it did. */
async function prepareAction(
  options: PrepareFlags,
  outcome: CommandOutcome,
  limits: Limits,
): Promise<void> {
  const out = path.resolve(options.out);
  const token = process.env.HF_TOKEN?.trim() || undefined;
  const result = await prepareDataset({
    out,
    repo: options.repo,
    revision: options.revision,
    endpoint: (process.env.HF_ENDPOINT?.trim() || 'https://huggingface.co').replace(/\/+$/, ''),
    ...(token ? { token } : {}),
    stallMs: options.stallTimeoutMs,
    minBytesPerSecond: options.minRate,
    deadlineMs: options.deadlineMs,
    allowUnverified: options.allowUnverified === true,
    onProgress: (message) => say(`apb: ${message}`),
    limits,
  });
  for (const reason of result.skipped) say(`warning: not extracted: ${reason}`);
  say(
    `apb: ${result.downloaded} file(s) downloaded, ${result.kept} already present, ${result.extracted} asset file(s) extracted into ${options.out}`,
  );
  say(`apb: next: apb data validate ${options.out}`);
  outcome.exitCode = 0;
}

/** Counts of `apb data validate`: schema problems, and the rule check's errors and warnings. */
interface Tally {
  perSplit: Map<string, number>;
  problems: number;
  invalid: number;
  rules: { errors: number; warnings: number; records: number };
  sizes: LargestFiles;
}

/** `apb data validate DIR`: prints every problem, then the counts. */
async function validateAction(
  dir: string,
  options: { warnings: boolean; limits: Limits },
  outcome: CommandOutcome,
): Promise<void> {
  const root = resolveDatasetDir(dir);
  const tally: Tally = {
    perSplit: new Map(),
    problems: 0,
    invalid: 0,
    rules: { errors: 0, warnings: 0, records: 0 },
    sizes: new LargestFiles(options.limits),
  };
  const strays = unknownDataFileWarnings(root);
  if (options.warnings) for (const line of strays) process.stdout.write(`${line}\n`);
  for await (const item of readCases(root, { limits: options.limits })) {
    if (item.kind === 'invalid') {
      tally.invalid += 1;
      tally.problems += item.issues.length;
      for (const issue of item.issues) process.stdout.write(`${formatIssue(issue)}\n`);
    } else checkCase(item.case, tally, options);
  }
  const { perSplit, rules, invalid, problems } = tally;
  const summary = SPLITS.filter((split) => perSplit.has(split))
    .map((split) => `${split} ${perSplit.get(split)}`)
    .join(', ');
  const valid = [...perSplit.values()].reduce((a, b) => a + b, 0);
  say(
    `apb: ${valid} valid case(s)${summary ? ` (${summary})` : ''}; ${invalid} invalid record(s), ${problems} problem(s)`,
  );
  say(
    `apb: rule check (paper B.2): ${rules.errors} error(s) in ${rules.records} record(s), ${rules.warnings} warning(s)`,
  );
  if (strays.length > 0)
    say(`apb: ${strays.length} file(s) under data/ that are not split files (warnings)`);
  for (const line of tally.sizes.lines()) say(`apb: ${line}`);
  outcome.exitCode = problems > 0 || rules.errors > 0 ? 1 : 0;
}

/** One valid case: counted, its files sized, its rule-check issues printed (warnings if asked). */
function checkCase(
  testCase: Case,
  tally: Tally,
  { warnings, limits }: { warnings: boolean; limits: Limits },
): void {
  const { split, location } = testCase;
  tally.perSplit.set(split, (tally.perSplit.get(split) ?? 0) + 1);
  tally.sizes.add(testCase.input.files);
  const found = ruleCheck(testCase, limits.jsonDepth);
  if (found.some((issue) => issue.severity === 'error')) tally.rules.records += 1;
  for (const issue of found) {
    const error = issue.severity === 'error';
    tally.rules[error ? 'errors' : 'warnings'] += 1;
    if (error || warnings)
      process.stdout.write(
        `${formatIssue({ ...location, field: issue.field, message: error ? issue.message : `warning: ${issue.message}` })}\n`,
      );
  }
}
