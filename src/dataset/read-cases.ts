/**
 * The one streaming reader of the released layout (`DIR/data/{split}.jsonl`): line numbers kept,
 * BOM / CRLF / blank lines accepted, every problem reported as an `InputIssue`.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Case, SplitName } from './case.js';
import type { ContentHasher } from './content-hash.js';
import { FileResolver } from './files.js';
import { listSplitFiles } from './layout.js';
import { parseRecordLine } from './parse-record.js';
import { InputError, UsageError, type InputIssue } from '../errors.js';
import { readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';

/** The built-in sample dataset shipped with the package (`--data sample`). */
export const SAMPLE_DATASET_DIR = fileURLToPath(new URL('../../sample', import.meta.url));

/** Resolves `--data`: the word `sample` means the built-in sample. */
export function resolveDatasetDir(data: string): string {
  const dir = data === 'sample' ? SAMPLE_DATASET_DIR : path.resolve(data);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`dataset directory not found: ${data}`);
  if (!existsSync(path.join(dir, 'data')))
    throw new UsageError(
      `${data} has no data/ folder (expected the released layout DIR/data/{split}.jsonl)`,
    );
  return dir;
}

/** What the reader yields: a valid case, or the problems of one line. */
export type ReadItem = { kind: 'case'; case: Case } | { kind: 'invalid'; issues: InputIssue[] };

export interface ReadOptions {
  splits?: readonly SplitName[];
  /** Share a resolver between passes over one dataset, so each attachment is read and hashed once. */
  resolver?: FileResolver;
  /**
   * A second pass over lines this process already validated: every line is trusted except those
   * listed (`file:line` keys of the invalid ones, which are skipped), and no schema work is redone.
   */
  trusted?: { invalidLines: ReadonlySet<string> };
  /** First N valid cases of each split, in file order. */
  limitPerSplit?: number;
  /** Fed every byte read, to compute the dataset's content hash in the same pass. */
  hasher?: ContentHasher;
  ids?: ReadonlySet<string>;
  /**
   * The caps the dataset is read under (line, JSON nesting, attachment sizes); default
   * `DEFAULT_LIMITS`. A shared `resolver` brings its own file caps.
   */
  limits?: Limits;
}

/** Streams the cases of a dataset directory, split by split, reporting duplicate ids across splits. */
export async function* readCases(dir: string, options: ReadOptions = {}): AsyncGenerator<ReadItem> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const resolver = options.resolver ?? new FileResolver(dir, limits);
  const firstSeen = new Map<string, string>();
  const wanted = options.splits ? new Set(options.splits) : null;
  for (const { split, file } of listSplitFiles(dir)) {
    if (wanted && !wanted.has(split)) continue;
    const display = path.relative(process.cwd(), file) || file;
    let taken = 0;
    const hasher = options.hasher;
    hasher?.startFile(split);
    for await (const { line: lineNumber, text } of readLines(
      file,
      hasher && ((bytes) => hasher.update(bytes)),
      { lineBytes: limits.lineBytes },
    )) {
      if (options.limitPerSplit !== undefined && taken >= options.limitPerSplit) {
        hasher?.leftEarly();
        break;
      }
      if (options.trusted?.invalidLines.has(`${display}:${lineNumber}`)) continue;
      const parsed = parseRecordLine(
        text,
        { file: display, line: lineNumber, fileSplit: split },
        resolver,
        { validate: !options.trusted, jsonDepth: limits.jsonDepth },
      );
      if (!parsed.ok) {
        yield { kind: 'invalid', issues: parsed.issues };
        continue;
      }
      const { id } = parsed.case;
      if (options.ids && !options.ids.has(id)) continue;
      const where = `${display}:${lineNumber}`;
      const earlier = firstSeen.get(id);
      if (earlier) {
        yield {
          kind: 'invalid',
          issues: [
            {
              file: display,
              line: lineNumber,
              field: 'id',
              message: `duplicate id "${id}" (first at ${earlier})`,
            },
          ],
        };
        continue;
      }
      firstSeen.set(id, where);
      taken += 1;
      yield { kind: 'case', case: parsed.case };
    }
  }
}

/** Reads every case or throws one `InputError` listing every problem (for commands that need all cases). */
export async function readAllCases(
  dir: string,
  options: ReadOptions & { skipInvalid?: boolean } = {},
) {
  const cases: Case[] = [];
  const issues: InputIssue[] = [];
  let invalidRecords = 0;
  for await (const item of readCases(dir, options)) {
    if (item.kind === 'case') cases.push(item.case);
    else {
      invalidRecords += 1;
      issues.push(...item.issues);
    }
  }
  if (issues.length > 0 && !options.skipInvalid) throw new InputError(issues);
  return { cases, issues, invalidRecords };
}
