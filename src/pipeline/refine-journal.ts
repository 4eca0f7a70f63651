/**
 * `refine-steps.jsonl`: every finished critique, revision and initial-answer verdict of a refined
 * run, appended (synchronously) the moment it completes, keyed by the refined line's fingerprint.
 * A resumed run hands a case's steps back to the loop, so a finished call is never sent again,
 * even when the case's line was not yet written when the process died.
 */
import type { Limits } from '../limits.js';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RefineStep } from '../refine/records.js';
import type { InitialAnswer } from './records.js';
import { appendLineSync, openAppendNoFollow } from '../atomic-write.js';
import { readJsonLines } from './results-store.js';

/** The journal's file name inside a refined run directory. */
export const JOURNAL_FILE = 'refine-steps.jsonl';

const EntrySchema = z.discriminatedUnion('kind', [
  z.object({
    fingerprint: z.string(),
    kind: z.enum(['critique', 'revision']),
    round: z.number().int().positive(),
    record: z.object({ status: z.string() }).loose(),
  }),
  z.object({
    fingerprint: z.string(),
    kind: z.literal('initial'),
    record: z.object({ model_response: z.string(), judge: z.string() }).loose(),
  }),
]);

/** True for an empty file or one whose last byte is a newline. */
function endsWithNewline(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** The steps and initial verdicts a directory already holds, by refined fingerprint, and an appender for new ones. */
export class StepJournal {
  private readonly fd: number;
  private readonly steps = new Map<string, RefineStep[]>();
  private readonly initials = new Map<string, InitialAnswer>();

  private constructor(readonly file: string) {
    const torn = existsSync(file) && !endsWithNewline(file);
    this.fd = openAppendNoFollow(file);
    // A crash can leave a last line without its newline: end it, so the next entry starts a line of its own.
    if (torn) appendLineSync(this.fd, this.file, '\n');
  }

  /** Opens (creating) the journal of `dir` and reads what it holds; unreadable lines (a torn write) are skipped. */
  static async open(dir: string, limits?: Limits): Promise<StepJournal> {
    const journal = new StepJournal(path.join(dir, JOURNAL_FILE));
    for await (const { value } of readJsonLines(journal.file, undefined, limits)) {
      const parsed = EntrySchema.safeParse(value);
      if (!parsed.success) continue;
      const entry = parsed.data;
      if (entry.kind === 'initial')
        journal.initials.set(entry.fingerprint, entry.record as unknown as InitialAnswer);
      else
        journal.remember(entry.fingerprint, {
          round: entry.round,
          kind: entry.kind,
          record: entry.record,
        } as unknown as RefineStep);
    }
    return journal;
  }

  private remember(fingerprint: string, step: RefineStep): void {
    const list = this.steps.get(fingerprint) ?? [];
    this.steps.set(fingerprint, [
      ...list.filter((other) => other.round !== step.round || other.kind !== step.kind),
      step,
    ]);
  }

  /** The finished steps of one refined line. */
  stepsOf(fingerprint: string): RefineStep[] {
    return this.steps.get(fingerprint) ?? [];
  }

  /** The initial verdict judged here for one refined line, if any. */
  initialOf(fingerprint: string): InitialAnswer | undefined {
    return this.initials.get(fingerprint);
  }

  appendStep(fingerprint: string, step: RefineStep): void {
    appendLineSync(this.fd, this.file, `${JSON.stringify({ fingerprint, ...step })}\n`);
    this.remember(fingerprint, step);
  }

  appendInitial(fingerprint: string, initial: InitialAnswer): void {
    appendLineSync(
      this.fd,
      this.file,
      `${JSON.stringify({ fingerprint, kind: 'initial', record: initial })}\n`,
    );
    this.initials.set(fingerprint, initial);
  }

  close(): void {
    closeSync(this.fd);
  }
}
