/**
 * Construction's output edge: an output directory locked for one writer, emptied when it is an
 * earlier construction output, and a step's (or a pipeline's joined) output written in the
 * released layout with its provenance and attachments.
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
import { SPLITS } from '../dataset/case.js';
import { containedFile } from '../dataset/contained-file.js';
import { writeFileAtomic } from '../atomic-write.js';
import { UsageError } from '../errors.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { acquireRunLock, RUN_LOCK_FILE, type RunLock } from '../rundir/lock.js';
import type { Attachment, ConstructedCase, MetaLine } from './case-record.js';
import type { ReviewLine } from './review.js';
import type { SourceRecord } from './source-record.js';
import type { Skip } from './step.js';
import { HEADER_FILE, REJECTED_FILE, REVIEW_FILE, SOURCES_FILE } from './store.js';

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
function containedSource(root: string, relative: string, maxBytes: number): string {
  const found = containedFile(root, relative, maxBytes, 'APB_MAX_FILE_BYTES');
  if (!found.ok) throw new UsageError(`attachment ${relative}: ${found.message}`);
  return found.realPath;
}

function copyAttachments(
  out: string,
  attachments: readonly Attachment[],
  maxBytes: number = DEFAULT_LIMITS.fileBytes,
): void {
  const copied = new Map<string, string>();
  for (const attachment of attachments) {
    const { path: relative } = attachment;
    const absolutePath =
      attachment.root === undefined
        ? attachment.absolutePath
        : containedSource(attachment.root, relative, maxBytes);
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
  limits: Limits = DEFAULT_LIMITS,
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
  copyAttachments(
    out,
    [...output.cases.flatMap((item) => item.attachments), ...(output.sources?.attachments ?? [])],
    limits.fileBytes,
  );
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
