/**
 * `ResultsStore`: append-only JSONL of predictions and judgements, one line per finished case,
 * written synchronously so a line that exists survives a crash; a torn last line is dropped on open.
 */
import { closeSync, mkdirSync, writeSync } from 'node:fs';
import { fileWriteError, openAppendNoFollow } from '../atomic-write.js';
import path from 'node:path';
import type { JudgementLine, PredictionLine } from './records.js';
import type { LineSchema } from '../rundir/line-schema.js';
import { checkRunFileValue } from '../rundir/schemas/index.js';
import {
  damagedLine,
  dropTornLine,
  lineText,
  readJsonLines,
  strictLinePlaces,
  type LineSource,
} from '../rundir/jsonl-store.js';

export { damagedLine, dropTornLine, lineText, readJsonLines, strictLinePlaces, type LineSource };

export interface ResultsStore {
  appendPrediction(line: PredictionLine, source?: LineSource): void;
  appendJudgement(line: JudgementLine, source?: LineSource): void;
  readPredictions(): AsyncIterable<PredictionLine>;
  readJudgements(): AsyncIterable<JudgementLine>;
  /** Lines dropped because a crash left them half-written. */
  readonly tornLinesDropped: number;
  close(): void;
}

/** The result files read back strictly, and the line type each holds. */
interface ResultFiles {
  predictions: PredictionLine;
  judgements: JudgementLine;
}

/**
 * A result file's schema (`rundir/schemas/`, migration included) in the store's `safeParse`
 * shape: the same schema that types the lines checks them when they are read back.
 */
export function resultLineSchema<Id extends keyof ResultFiles>(
  id: Id,
): LineSchema<ResultFiles[Id]> {
  return {
    safeParse(value) {
      const checked = checkRunFileValue(id, value);
      return checked.ok
        ? { success: true, data: checked.value as ResultFiles[Id] }
        : {
            success: false,
            error: { issues: [{ path: [checked.field], message: checked.message }] },
          };
    },
  };
}

async function* strictLines<Id extends keyof ResultFiles>(
  file: string,
  id: Id,
): AsyncGenerator<ResultFiles[Id]> {
  for await (const { value } of strictLinePlaces(file, resultLineSchema(id))) yield value;
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
