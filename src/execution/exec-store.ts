/**
 * The exec run directory's two append-only JSONL files: `plans.jsonl` (one opening per task and trial: the user's
 * first message, the draft plan, the refined plan, their APB judgements) and `executions.jsonl` (one line per task,
 * mode and trial). Lines are written synchronously, a torn last line is dropped on open, and resume reads both back.
 */
import type { Limits } from '../limits.js';
import { closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { appendLineSync, openAppendNoFollow } from '../atomic-write.js';
import { dropTornLine, readJsonLines } from '../rundir/jsonl-store.js';

/** The key of an execution: (task, mode, trial). */
export const executionKey = (taskId: string, mode: string, trial: number) =>
  JSON.stringify([taskId, mode, trial]);
/** The key of an opening: (task, trial). */
export const openingKey = (taskId: string, trial: number) => JSON.stringify([taskId, trial]);

/** Append-only writer of an exec run directory. */
export class ExecStore {
  readonly plansPath: string;
  readonly executionsPath: string;
  readonly tornLinesDropped: number;
  private readonly plansFd: number;
  private readonly executionsFd: number;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.plansPath = path.join(dir, 'plans.jsonl');
    this.executionsPath = path.join(dir, 'executions.jsonl');
    this.tornLinesDropped =
      Number(dropTornLine(this.plansPath)) + Number(dropTornLine(this.executionsPath));
    this.plansFd = openAppendNoFollow(this.plansPath);
    this.executionsFd = openAppendNoFollow(this.executionsPath);
  }

  appendOpening(line: object): void {
    appendLineSync(this.plansFd, this.plansPath, `${JSON.stringify(line)}\n`);
  }

  appendExecution(line: object): void {
    appendLineSync(this.executionsFd, this.executionsPath, `${JSON.stringify(line)}\n`);
  }

  close(): void {
    closeSync(this.plansFd);
    closeSync(this.executionsFd);
  }
}

/** Reads the lines of a file into a map by key (a later line of the same key wins). */
export async function readKeyed<T>(
  file: string,
  keyOf: (line: T) => string,
  limits?: Limits,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for await (const { value } of readJsonLines(file, undefined, limits))
    out.set(keyOf(value as T), value as T);
  return out;
}
