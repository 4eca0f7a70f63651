/**
 * Append-only JSONL files of a run directory (`predictions.jsonl`, `judgements.jsonl`,
 * `executions.jsonl`, journals): one line per finished unit, written synchronously through an
 * `O_APPEND` descriptor so a line that exists survives a crash; a torn (newline-less) last line
 * left by a crash is cut when the store opens. Every line read back goes through the store's
 * schema, so the same schema writes and reads a file.
 */
import {
  closeSync,
  constants,
  existsSync,
  ftruncateSync,
  fstatSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { fileWriteError, openAppendNoFollow } from '../atomic-write.js';
import { InputError, type InputIssue } from '../errors.js';
import { parseUntrustedJson } from '../json-depth.js';
import { readLineAt, readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { checkLine, type LineSchema } from './line-schema.js';

/**
 * Where a line's dataset fields came from: the case's record and its original JSON text. Given it,
 * a store may write those fields as the original text instead of serialising them again.
 */
export interface LineSource {
  record: Record<string, unknown>;
  text: string;
}

/** A line's byte place in its file (appends never move a line, so it stays right while a run writes). */
export interface LinePlace {
  offset: number;
  bytes: number;
}

/**
 * Streams the JSON objects of a file with their line numbers and byte places, read under `limits`
 * (line and nesting caps); unreadable lines go to `onBadLine`.
 */
export async function* readJsonLines(
  file: string,
  onBadLine?: (line: number, message: string) => void,
  limits: Limits = DEFAULT_LIMITS,
): AsyncGenerator<{ line: number; value: Record<string, unknown>; offset: number; bytes: number }> {
  if (!existsSync(file)) return;
  for await (const { line: lineNumber, text, offset, bytes } of readLines(
    file,
    undefined,
    limits,
  )) {
    try {
      const value = parseUntrustedJson(text, limits.jsonDepth);
      if (value && typeof value === 'object' && !Array.isArray(value))
        yield { line: lineNumber, value: value as Record<string, unknown>, offset, bytes };
      else onBadLine?.(lineNumber, 'expected a JSON object');
    } catch (error) {
      onBadLine?.(lineNumber, `invalid JSON: ${(error as Error).message}`);
    }
  }
}

/** The input issue of a damaged run-file line, with what to do about it. */
export function damagedLine(
  file: string,
  line: number,
  message: string,
  field = '(line)',
): InputIssue {
  return {
    file,
    line,
    field,
    message: `${message}; the run directory is damaged: repair or delete this line, then rerun (its case runs again)`,
  };
}

/**
 * The lines of a run file for resuming, each through `schema`: an unreadable line (a torn last
 * line was already cut) is damage a resume must not paper over — its unit would run again while
 * the bad line stays — so every such line is reported (FILE:LINE: field) once the whole file has
 * been read, before anything is spent.
 */
export async function* strictLinePlaces<T>(
  file: string,
  schema?: LineSchema<T>,
  limits?: Limits,
): AsyncGenerator<{ value: T; offset: number; bytes: number; line: number }> {
  const issues: InputIssue[] = [];
  const onBadLine = (line: number, message: string) =>
    issues.push(damagedLine(file, line, message));
  for await (const { value, offset, bytes, line } of readJsonLines(file, onBadLine, limits)) {
    const checked = schema ? checkLine(schema, value) : { ok: true as const, value: value as T };
    if (checked.ok) yield { value: checked.value, offset, bytes, line };
    else issues.push(damagedLine(file, line, checked.message, checked.field));
  }
  if (issues.length > 0) throw new InputError(issues);
}

/** Cuts a torn (newline-less) last line left by a crash; returns whether it cut. */
export function dropTornLine(file: string): boolean {
  if (!existsSync(file)) return false;
  // Never through a planted symlink: truncating would cut the link's target.
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch (error) {
    throw fileWriteError(file, error);
  }
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(Math.max(size, 1), 1 << 20));
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      readSync(fd, chunk, 0, end - start, start);
      const index = chunk.subarray(0, end - start).lastIndexOf(0x0a);
      if (index >= 0) {
        const cut = start + index + 1;
        if (cut !== size) ftruncateSync(fd, cut);
        return cut !== size;
      }
      end = start;
    }
    if (size > 0) ftruncateSync(fd, 0);
    return size > 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * A line as JSON text. When every dataset field of the line is the record's own (same key, same
 * value), the record's original text is reused and only the fields added by apb are serialised:
 * the dataset fields are most of every line, and re-escaping their embedded JSON strings dominated
 * the cost of writing results. The text parses to the same object either way.
 */
export function lineText(line: object, source?: LineSource): string {
  if (!source || !source.text.endsWith('}')) return JSON.stringify(line);
  const fields = line as Record<string, unknown>;
  for (const key of Object.keys(source.record))
    if (fields[key] !== source.record[key]) return JSON.stringify(line);
  const added: Record<string, unknown> = {};
  for (const key of Object.keys(fields))
    if (!Object.hasOwn(source.record, key)) added[key] = fields[key];
  const addedText = JSON.stringify(added);
  return addedText === '{}' ? source.text : `${source.text.slice(0, -1)},${addedText.slice(1)}`;
}

/** One append-only JSONL file, its lines typed by the store's schema. */
export interface JsonlStore<T> {
  readonly file: string;
  /** Whether opening cut a torn last line left by a crash. */
  readonly tornLineDropped: boolean;
  /** Appends one line (synchronously; a write error is one line naming the file, the lines before it stay). */
  append(line: T, source?: LineSource): void;
  /** Calls `listener` with every line appended from now on (e.g. a tally). */
  onAppend(listener: (line: T) => void): void;
  /** Every line now in the file, through the schema; damaged lines are refused together (FILE:LINE). */
  read(): AsyncIterable<T>;
  /** The same with each line's byte place, to read it again later with `readAt`. */
  places(): AsyncIterable<{ value: T; offset: number; bytes: number; line: number }>;
  /** One line again by its place, through the schema. */
  readAt(place: LinePlace): T;
  close(): void;
}

/**
 * Opens (creating) the JSONL file `file` for appending, after cutting a torn last line; its lines
 * are read back under `limits` (default `DEFAULT_LIMITS`).
 */
export function createJsonlStore<T extends object>(
  file: string,
  schema?: LineSchema<T>,
  limits?: Limits,
): JsonlStore<T> {
  const tornLineDropped = dropTornLine(file);
  // O_APPEND makes every write an atomic append; a symlink planted at the name is refused.
  const fd = openAppendNoFollow(file);
  let readFd: number | null = null;
  let open = true;
  const listeners: Array<(line: T) => void> = [];
  return {
    file,
    tornLineDropped,
    append(line, source) {
      try {
        writeSync(fd, `${lineText(line, source)}\n`);
      } catch (error) {
        throw fileWriteError(file, error);
      }
      for (const listener of listeners) listener(line);
    },
    onAppend: (listener) => void listeners.push(listener),
    async *read() {
      for await (const { value } of strictLinePlaces(file, schema, limits)) yield value;
    },
    places: () => strictLinePlaces(file, schema, limits),
    readAt(place) {
      readFd ??= openSync(file, 'r');
      const value = JSON.parse(readLineAt(readFd, place.offset, place.bytes)) as unknown;
      const checked = schema ? checkLine(schema, value) : { ok: true as const, value: value as T };
      if (!checked.ok) throw new InputError([damagedLine(file, 0, checked.message, checked.field)]);
      return checked.value;
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
      if (readFd !== null) closeSync(readFd);
    },
  };
}
