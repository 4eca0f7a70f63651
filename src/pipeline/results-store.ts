/**
 * `ResultsStore`: append-only JSONL of predictions and judgements, one line per finished case,
 * written synchronously so a line that exists survives a crash; a torn last line is dropped on open.
 */
import {
  closeSync,
  constants,
  existsSync,
  ftruncateSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { fileWriteError, openAppendNoFollow } from '../atomic-write.js';
import path from 'node:path';
import { readLines } from '../jsonl-lines.js';
import { InputError, type InputIssue } from '../errors.js';
import type { JudgementLine, PredictionLine } from './records.js';
import { parseUntrustedJson } from '../json-depth.js';
import { checkRunFileValue } from '../rundir/schemas/index.js';

/**
 * Where a line's dataset fields came from: the case's record and its original JSON text. Given it,
 * a store may write those fields as the original text instead of serialising them again.
 */
export interface LineSource {
  record: Record<string, unknown>;
  text: string;
}

export interface ResultsStore {
  appendPrediction(line: PredictionLine, source?: LineSource): void;
  appendJudgement(line: JudgementLine, source?: LineSource): void;
  readPredictions(): AsyncIterable<PredictionLine>;
  readJudgements(): AsyncIterable<JudgementLine>;
  /** Lines dropped because a crash left them half-written. */
  readonly tornLinesDropped: number;
  close(): void;
}

/** Streams the JSON lines of a file with their line numbers and byte places; unreadable lines are reported through `onBadLine`. */
export async function* readJsonLines(
  file: string,
  onBadLine?: (line: number, message: string) => void,
): AsyncGenerator<{ line: number; value: Record<string, unknown>; offset: number; bytes: number }> {
  if (!existsSync(file)) return;
  for await (const { line: lineNumber, text, offset, bytes } of readLines(file)) {
    try {
      const value = parseUntrustedJson(text);
      if (value && typeof value === 'object' && !Array.isArray(value))
        yield { line: lineNumber, value: value as Record<string, unknown>, offset, bytes };
      else onBadLine?.(lineNumber, 'expected a JSON object');
    } catch (error) {
      onBadLine?.(lineNumber, `invalid JSON: ${(error as Error).message}`);
    }
  }
}

/** The input issue of a damaged run-file line, with what to do about it. */
export function damagedLine(file: string, line: number, message: string): InputIssue {
  return {
    file,
    line,
    field: '(line)',
    message: `${message}; the run directory is damaged: repair or delete this line, then rerun (its case runs again)`,
  };
}

/** The result files `strictLinePlaces` reads, and the line type each holds. */
interface ResultFiles {
  predictions: PredictionLine;
  judgements: JudgementLine;
}

/**
 * The lines of a run file for resuming, each checked against its schema (`rundir/schemas/`): an
 * unreadable or mismatching line (a torn last line was already cut) is damage that a resume must
 * not paper over — its case would run again while the bad line stays and fails the scores
 * afterwards — so every such line is reported (FILE:LINE: field: message) once the file has been
 * read, before anything is spent. Each line comes with its byte place in the file.
 */
export async function* strictLinePlaces<Id extends keyof ResultFiles>(
  file: string,
  id: Id,
): AsyncGenerator<{ value: ResultFiles[Id]; offset: number; bytes: number }> {
  const issues: InputIssue[] = [];
  const onBadLine = (line: number, message: string) =>
    issues.push(damagedLine(file, line, message));
  for await (const { line, value, offset, bytes } of readJsonLines(file, onBadLine)) {
    const checked = checkRunFileValue(id, value);
    if (checked.ok) yield { value: checked.value as ResultFiles[Id], offset, bytes };
    else issues.push({ ...damagedLine(file, line, checked.message), field: checked.field });
  }
  if (issues.length > 0) throw new InputError(issues);
}

async function* strictLines<Id extends keyof ResultFiles>(
  file: string,
  id: Id,
): AsyncGenerator<ResultFiles[Id]> {
  for await (const { value } of strictLinePlaces(file, id)) yield value;
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

/** One append; a full disk (or any write error) is one line naming the file, and the lines before it stay. */
function appendLine(fd: number, file: string, text: string): void {
  try {
    writeSync(fd, text);
  } catch (error) {
    throw fileWriteError(file, error);
  }
}

/** The JSONL store of a run directory (`predictions.jsonl`, `judgements.jsonl`). */
export class JsonlResultsStore implements ResultsStore {
  private readonly predictionsFd: number;
  private readonly judgementsFd: number;
  readonly tornLinesDropped: number;
  readonly predictionsPath: string;
  readonly judgementsPath: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.predictionsPath = path.join(dir, 'predictions.jsonl');
    this.judgementsPath = path.join(dir, 'judgements.jsonl');
    this.tornLinesDropped =
      Number(dropTornLine(this.predictionsPath)) + Number(dropTornLine(this.judgementsPath));
    // O_APPEND makes every write an atomic append; a synchronous write is in the kernel before we
    // move on. A symlink planted at either name is refused rather than appended through.
    this.predictionsFd = openAppendNoFollow(this.predictionsPath);
    this.judgementsFd = openAppendNoFollow(this.judgementsPath);
  }

  appendPrediction(line: PredictionLine, source?: LineSource): void {
    appendLine(this.predictionsFd, this.predictionsPath, `${lineText(line, source)}\n`);
  }

  appendJudgement(line: JudgementLine, source?: LineSource): void {
    appendLine(this.judgementsFd, this.judgementsPath, `${lineText(line, source)}\n`);
  }

  async *readPredictions(): AsyncIterable<PredictionLine> {
    yield* strictLines(this.predictionsPath, 'predictions');
  }

  async *readJudgements(): AsyncIterable<JudgementLine> {
    yield* strictLines(this.judgementsPath, 'judgements');
  }

  close(): void {
    closeSync(this.predictionsFd);
    closeSync(this.judgementsFd);
  }
}

/** An in-memory store with the same contract, for tests and library use. */
export class MemoryResultsStore implements ResultsStore {
  readonly predictions: PredictionLine[] = [];
  readonly judgements: JudgementLine[] = [];
  readonly tornLinesDropped = 0;

  appendPrediction(line: PredictionLine): void {
    this.predictions.push(structuredClone(line));
  }

  appendJudgement(line: JudgementLine): void {
    this.judgements.push(structuredClone(line));
  }

  async *readPredictions(): AsyncIterable<PredictionLine> {
    yield* this.predictions;
  }

  async *readJudgements(): AsyncIterable<JudgementLine> {
    yield* this.judgements;
  }

  close(): void {}
}
