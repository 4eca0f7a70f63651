/**
 * The construction steps' I/O edge: source records and review decisions read back (validated,
 * every problem as FILE:LINE: field: message), parent cases read through the dataset reader, and a
 * step's output written in the released layout with its provenance and attachments.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import type { Case, SplitName } from '../dataset/case.js';
import { SPLITS } from '../dataset/case.js';
import { containedFile } from '../dataset/contained-file.js';
import { FileResolver } from '../dataset/files.js';
import { readAllCases } from '../dataset/read-cases.js';
import { writeFileAtomic } from '../atomic-write.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import { LIMITS } from '../limits.js';
import { readLines } from '../jsonl-lines.js';
import { acquireRunLock, RUN_LOCK_FILE, type RunLock } from '../rundir/lock.js';
import type { z } from 'zod';
import type { Attachment, ConstructedCase, MetaLine } from './case-record.js';
import { ruleCheckSource } from './check.js';
import { NON_FINITE_MESSAGE, nonFinitePath } from './finite.js';
import { applyReview, ReviewLineSchema, type ReviewLine, type ReviewSummary } from './review.js';
import { SourceRecordSchema, type SourceRecord } from './source-record.js';
import type { Skip } from './step.js';

/** The source records of a construction output. */
export const SOURCES_FILE = 'sources.jsonl';
/** `check`'s rejected records, with their reasons. */
export const REJECTED_FILE = 'rejected.jsonl';
/** `check`'s review queue, read back by every later step. */
export const REVIEW_FILE = 'review.jsonl';
/** The provenance header of a construction output (its presence marks a directory as one). */
export const HEADER_FILE = path.join('meta', 'construct.json');

/** A file's name as messages show it: relative to the working directory. */
export const display = (file: string) => path.relative(process.cwd(), file) || file;

/** The JSON value of each line of a JSONL file; a line that is not JSON becomes an issue. */
export async function* jsonLines(
  file: string,
  issues: InputIssue[],
): AsyncGenerator<{ line: number; value: unknown }> {
  for await (const { line, text } of readLines(file)) {
    let value: unknown;
    try {
      value = parseUntrustedJson(text);
    } catch (error) {
      issues.push({
        file: display(file),
        line,
        field: '(line)',
        message: `invalid JSON: ${(error as Error).message}`,
      });
      continue;
    }
    const at = nonFinitePath(value);
    if (at === null) yield { line, value };
    else issues.push({ file: display(file), line, field: at, message: NON_FINITE_MESSAGE });
  }
}

/** Reads a JSONL file through a schema, collecting every problem. */
export async function readSchemaLines<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<{ lines: Array<{ line: number; value: z.infer<S> }>; issues: InputIssue[] }> {
  const lines: Array<{ line: number; value: z.infer<S> }> = [];
  const issues: InputIssue[] = [];
  for await (const { line, value } of jsonLines(file, issues)) {
    const parsed = schema.safeParse(value);
    if (parsed.success) lines.push({ line, value: parsed.data });
    else
      for (const issue of parsed.error.issues)
        issues.push({
          file: display(file),
          line,
          field: issue.path.map(String).join('.') || '(record)',
          message: issue.message,
        });
  }
  return { lines, issues };
}

/** Source records of a construction output, with the review decisions applied when `review.jsonl` is there. */
export async function readSources(
  dir: string,
  options: { reviewedOnly?: boolean } = {},
): Promise<{
  records: SourceRecord[];
  lines: number[];
  file: string;
  root: string;
  skipped: Skip[];
  review: ReviewSummary | null;
}> {
  const file = path.join(dir, SOURCES_FILE);
  if (!existsSync(file))
    throw new UsageError(
      `${dir} has no ${SOURCES_FILE}: give the output of apb construct import or check`,
    );
  const read = await readSchemaLines(file, SourceRecordSchema);
  const seen = new Map<string, number>();
  for (const { line, value } of read.lines) {
    const first = seen.get(value.id);
    if (first !== undefined)
      read.issues.push({
        file: display(file),
        line,
        field: 'id',
        message: `duplicate id "${value.id}" (first at line ${first})`,
      });
    else seen.set(value.id, line);
  }
  if (read.issues.length > 0) throw new InputError(read.issues);
  const records = read.lines.map((entry) => entry.value);
  const lineOf = new Map(read.lines.map((entry) => [entry.value.id, entry.line]));
  const reviewFile = path.join(dir, REVIEW_FILE);
  if (!existsSync(reviewFile))
    return {
      records,
      lines: read.lines.map((entry) => entry.line),
      file: display(file),
      root: dir,
      skipped: [],
      review: null,
    };
  const review = await readSchemaLines(reviewFile, ReviewLineSchema);
  if (review.issues.length > 0) throw new InputError(review.issues);
  const applied = applyReview(records, review.lines as Array<{ line: number; value: ReviewLine }>, {
    file: display(reviewFile),
    ...(options.reviewedOnly !== undefined ? { reviewedOnly: options.reviewedOnly } : {}),
  });
  // An edited record must pass the rule check the original passed: a reviewer's typo is no exception.
  const resolver = new FileResolver(dir);
  for (const { line, value } of review.lines) {
    const edited =
      value.decision === 'edited'
        ? applied.records.find((record) => record.id === value.id)
        : undefined;
    if (!edited) continue;
    for (const error of ruleCheckSource(edited, resolver, { file: display(reviewFile), line })
      .errors)
      applied.issues.push({
        file: display(reviewFile),
        line,
        field: 'record',
        message: `the edited record fails the rule check: ${error}`,
      });
  }
  if (applied.issues.length > 0) throw new InputError(applied.issues);
  return {
    records: applied.records,
    lines: applied.records.map((record) => lineOf.get(record.id) ?? 0),
    file: display(file),
    root: dir,
    skipped: applied.skipped,
    review: applied.summary,
  };
}

/** The valid cases of the given splits of a dataset directory (any invalid record refuses the input). */
export async function readParentCases(dir: string, splits: readonly SplitName[]): Promise<Case[]> {
  if (!existsSync(path.join(dir, 'data')))
    throw new UsageError(
      `${dir} has no data/ folder (expected the released layout DIR/data/{split}.jsonl)`,
    );
  const { cases } = await readAllCases(dir, { splits });
  return cases;
}

/** What one step (or a whole pipeline) writes. */
export interface StepOutput {
  cases: ConstructedCase[];
  skipped: Skip[];
  sources?: { records: SourceRecord[]; meta: MetaLine[]; attachments: Attachment[] };
  rejected?: unknown[];
  review?: ReviewLine[];
  /** The provenance header (`meta/construct.json`): steps, options, seed; no clock, so reruns are byte-identical. */
  header: Record<string, unknown>;
}

const jsonl = (items: readonly unknown[]) =>
  items.map((item) => `${JSON.stringify(item)}\n`).join('');

function refuseInputAsOutput(out: string, inputs: readonly string[]): void {
  if (inputs.some((input) => path.resolve(input) === path.resolve(out)))
    throw new UsageError(`--out ${out} is also an input: write to another directory`);
}

/**
 * The one-writer lock of an output directory (`rundir/lock.ts`, the lock run directories use):
 * two constructions writing into one `--out` would interleave their files, so the second is
 * refused, naming the first. Release it when the step or pipeline is done.
 */
export function lockOutput(out: string, inputs: readonly string[], command: string): RunLock {
  refuseInputAsOutput(out, inputs);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UsageError(`--out ${out} is not a directory`);
  return acquireRunLock(out, command);
}

/** Empties `out` when it is a previous construction output; refuses any other non-empty directory and the input itself. The lock file stays. */
export function prepareOutput(out: string, inputs: readonly string[]): void {
  refuseInputAsOutput(out, inputs);
  if (!existsSync(out)) return void mkdirSync(out, { recursive: true });
  if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} is not a directory`);
  const entries = readdirSync(out).filter((entry) => entry !== RUN_LOCK_FILE);
  if (entries.length === 0) return;
  if (!existsSync(path.join(out, HEADER_FILE)))
    throw new UsageError(
      `--out ${out} is not empty and was not written by apb construct: choose an empty or new directory`,
    );
  for (const entry of entries) rmSync(path.join(out, entry), { recursive: true, force: true });
}

/** The real path of a source record's file, refused (by real path, as the dataset reader does) when it leaves its root. */
function containedSource(root: string, relative: string): string {
  const found = containedFile(root, relative, LIMITS.fileBytes, 'APB_MAX_FILE_BYTES');
  if (!found.ok) throw new UsageError(`attachment ${relative}: ${found.message}`);
  return found.realPath;
}

function copyAttachments(out: string, attachments: readonly Attachment[]): void {
  const copied = new Map<string, string>();
  for (const attachment of attachments) {
    const { path: relative } = attachment;
    const absolutePath =
      attachment.root === undefined
        ? attachment.absolutePath
        : containedSource(attachment.root, relative);
    const target = path.resolve(out, relative);
    const inside = path.relative(out, target);
    if (inside.startsWith('..') || path.isAbsolute(inside))
      throw new UsageError(`attachment path "${relative}" escapes the output directory`);
    const earlier = copied.get(target);
    if (earlier !== undefined && earlier !== absolutePath)
      throw new UsageError(
        `two different files would be written to ${relative} (${earlier} and ${absolutePath})`,
      );
    if (earlier !== undefined) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(absolutePath, target);
    copied.set(target, absolutePath);
  }
}

/** Writes a step's output into `out`: `data/{split}.jsonl`, `meta/{split}.jsonl`, skips, sources, review, attachments. */
export function writeStepOutput(
  out: string,
  output: StepOutput,
  inputs: readonly string[],
): { files: string[] } {
  prepareOutput(out, inputs);
  const files: string[] = [];
  mkdirSync(path.join(out, 'data'), { recursive: true });
  const write = (relative: string, text: string) => {
    writeFileAtomic(path.join(out, relative), text);
    files.push(relative);
  };
  for (const split of SPLITS) {
    const cases = output.cases.filter((item) => item.split === split);
    if (cases.length === 0) continue;
    write(path.join('data', `${split}.jsonl`), jsonl(cases.map((item) => item.record)));
    write(path.join('meta', `${split}.jsonl`), jsonl(cases.map((item) => item.meta)));
  }
  if (output.sources) {
    write(SOURCES_FILE, jsonl(output.sources.records));
    write(path.join('meta', 'sources.jsonl'), jsonl(output.sources.meta));
  }
  if (output.rejected) write(REJECTED_FILE, jsonl(output.rejected));
  if (output.review) write(REVIEW_FILE, jsonl(output.review));
  write(path.join('meta', 'skipped.jsonl'), jsonl(output.skipped));
  write(HEADER_FILE, `${JSON.stringify(output.header, null, 2)}\n`);
  copyAttachments(out, [
    ...output.cases.flatMap((item) => item.attachments),
    ...(output.sources?.attachments ?? []),
  ]);
  return { files };
}

/** Files of a step directory that are not attachments. */
const OWN_ENTRIES = new Set([
  'data',
  'meta',
  'steps',
  SOURCES_FILE,
  REJECTED_FILE,
  REVIEW_FILE,
  RUN_LOCK_FILE,
]);

function copyTree(from: string, to: string, relative: string): void {
  for (const entry of readdirSync(path.join(from, relative), { withFileTypes: true })) {
    const inner = path.join(relative, entry.name);
    if (!relative && OWN_ENTRIES.has(entry.name)) continue;
    if (entry.isDirectory()) copyTree(from, to, inner);
    else copyAttachments(to, [{ path: inner, absolutePath: path.join(from, inner) }]);
  }
}

/**
 * A pipeline's joined output: every step's `data/{split}.jsonl` and `meta/{split}.jsonl` appended
 * in step order, their skips in one file, their attachments copied, and the pipeline's header.
 */
export function mergeStepOutputs(
  out: string,
  stepDirs: readonly string[],
  header: Record<string, unknown>,
): void {
  mkdirSync(path.join(out, 'data'), { recursive: true });
  mkdirSync(path.join(out, 'meta'), { recursive: true });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  for (const split of SPLITS) {
    const data = stepDirs.map((dir) => read(path.join(dir, 'data', `${split}.jsonl`))).join('');
    if (!data) continue;
    writeFileAtomic(path.join(out, 'data', `${split}.jsonl`), data);
    writeFileAtomic(
      path.join(out, 'meta', `${split}.jsonl`),
      stepDirs.map((dir) => read(path.join(dir, 'meta', `${split}.jsonl`))).join(''),
    );
  }
  writeFileAtomic(
    path.join(out, 'meta', 'skipped.jsonl'),
    stepDirs.map((dir) => read(path.join(dir, 'meta', 'skipped.jsonl'))).join(''),
  );
  writeFileAtomic(path.join(out, HEADER_FILE), `${JSON.stringify(header, null, 2)}\n`);
  for (const dir of stepDirs)
    if (existsSync(path.join(dir, 'data')) && readdirSync(path.join(dir, 'data')).length > 0)
      copyTree(dir, out, '');
}
