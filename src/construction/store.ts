/**
 * The construction steps' input edge: source records and review decisions read back (validated,
 * every problem as FILE:LINE: field: message) and parent cases read through the dataset reader.
 * Writing is output.ts's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { Case, SplitName } from '../dataset/case.js';
import { FileResolver } from '../dataset/files.js';
import { readAllCases } from '../dataset/read-cases.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import { readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
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

/**
 * The JSON value of each line of a JSONL file, read under `limits` (line and nesting caps); a line
 * that is not JSON becomes an issue.
 */
export async function* jsonLines(
  file: string,
  issues: InputIssue[],
  limits: Limits = DEFAULT_LIMITS,
): AsyncGenerator<{ line: number; value: unknown }> {
  for await (const { line, text } of readLines(file, undefined, limits)) {
    let value: unknown;
    try {
      value = parseUntrustedJson(text, limits.jsonDepth);
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
  limits?: Limits,
): Promise<{ lines: Array<{ line: number; value: z.infer<S> }>; issues: InputIssue[] }> {
  const lines: Array<{ line: number; value: z.infer<S> }> = [];
  const issues: InputIssue[] = [];
  for await (const { line, value } of jsonLines(file, issues, limits)) {
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

/** What `readSources` gives: the records (review applied), their lines, and what was dropped. */
export interface ReadSources {
  records: SourceRecord[];
  lines: number[];
  file: string;
  root: string;
  skipped: Skip[];
  review: ReviewSummary | null;
}

function duplicateIds(file: string, lines: ReadonlyArray<{ line: number; value: SourceRecord }>) {
  const seen = new Map<string, number>();
  const issues: InputIssue[] = [];
  for (const { line, value } of lines) {
    const first = seen.get(value.id);
    if (first === undefined) seen.set(value.id, line);
    else
      issues.push({
        file: display(file),
        line,
        field: 'id',
        message: `duplicate id "${value.id}" (first at line ${first})`,
      });
  }
  return issues;
}

/** An edited record must pass the rule check the original passed: a reviewer's typo is no exception. */
function editedRecordIssues(
  dir: string,
  reviewFile: string,
  review: ReadonlyArray<{ line: number; value: ReviewLine }>,
  records: readonly SourceRecord[],
  limits: Limits | undefined,
): InputIssue[] {
  const resolver = new FileResolver(dir, limits);
  return review.flatMap(({ line, value }) => {
    const edited =
      value.decision === 'edited' ? records.find((record) => record.id === value.id) : undefined;
    if (!edited) return [];
    const origin = { file: display(reviewFile), line };
    return ruleCheckSource(edited, resolver, origin).errors.map((error) => ({
      ...origin,
      field: 'record',
      message: `the edited record fails the rule check: ${error}`,
    }));
  });
}

/** Source records of a construction output, with the review decisions applied when `review.jsonl` is there. */
export async function readSources(
  dir: string,
  options: { reviewedOnly?: boolean; limits?: Limits | undefined } = {},
): Promise<ReadSources> {
  const file = path.join(dir, SOURCES_FILE);
  if (!existsSync(file))
    throw new UsageError(
      `${dir} has no ${SOURCES_FILE}: give the output of apb construct import or check`,
    );
  const read = await readSchemaLines(file, SourceRecordSchema, options.limits);
  read.issues.push(...duplicateIds(file, read.lines));
  if (read.issues.length > 0) throw new InputError(read.issues);
  const records = read.lines.map((entry) => entry.value);
  const lineOf = new Map(read.lines.map((entry) => [entry.value.id, entry.line]));
  const base = { file: display(file), root: dir };
  const reviewFile = path.join(dir, REVIEW_FILE);
  if (!existsSync(reviewFile))
    return {
      ...base,
      records,
      lines: read.lines.map((entry) => entry.line),
      skipped: [],
      review: null,
    };
  const review = await readSchemaLines(reviewFile, ReviewLineSchema, options.limits);
  if (review.issues.length > 0) throw new InputError(review.issues);
  const reviewLines = review.lines as Array<{ line: number; value: ReviewLine }>;
  const applied = applyReview(records, reviewLines, {
    file: display(reviewFile),
    ...(options.reviewedOnly !== undefined ? { reviewedOnly: options.reviewedOnly } : {}),
  });
  applied.issues.push(
    ...editedRecordIssues(dir, reviewFile, reviewLines, applied.records, options.limits),
  );
  if (applied.issues.length > 0) throw new InputError(applied.issues);
  return {
    ...base,
    records: applied.records,
    lines: applied.records.map((record) => lineOf.get(record.id) ?? 0),
    skipped: applied.skipped,
    review: applied.summary,
  };
}

/** The valid cases of the given splits of a dataset directory (any invalid record refuses the input). */
export async function readParentCases(
  dir: string,
  splits: readonly SplitName[],
  limits?: Limits,
): Promise<Case[]> {
  if (!existsSync(path.join(dir, 'data')))
    throw new UsageError(
      `${dir} has no data/ folder (expected the released layout DIR/data/{split}.jsonl)`,
    );
  const { cases } = await readAllCases(dir, { splits, ...(limits ? { limits } : {}) });
  return cases;
}
