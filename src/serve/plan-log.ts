/**
 * `serve-plans.jsonl`, the record of every conversation's plan, written safely: opened without following a
 * symbolic link (one planted in the run directory cannot make apb append elsewhere), and checked for free
 * space before a new conversation's plan is paid for, so a full disk is a 507 up front, not a plan bought and lost.
 */
import { closeSync, constants, mkdirSync, openSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { ServeFailure } from './failures.js';

/** Free space below which a new conversation is refused (its plan could not be recorded). */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** The plan log of one `apb serve`. */
export interface PlanLog {
  readonly file: string;
  /** A refusal when the disk is too full to record a plan, else null. */
  checkSpace(): ServeFailure | null;
  /** Appends one line (throws when the file is a symbolic link or the write fails). */
  append(line: string): void;
  close(): void;
}

/** Opens DIR/serve-plans.jsonl for appending (created if absent; a symbolic link is refused). */
export function openPlanLog(dir: string, minFreeBytes = MIN_FREE_BYTES): PlanLog {
  const folder = path.resolve(dir);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'serve-plans.jsonl');
  let fd: number;
  try {
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new UsageError(`${file} is a symbolic link; apb serve will not follow it`);
    throw error;
  }
  return {
    file,
    checkSpace() {
      const stats = statfsSync(folder);
      const free = stats.bavail * stats.bsize;
      if (free >= minFreeBytes) return null;
      return {
        status: 507,
        kind: 'storage',
        message: `apb serve: ${folder} has ${free} bytes free; a new conversation's plan could not be recorded, so none is made`,
      };
    },
    append(line) {
      writeSync(fd, line.endsWith('\n') ? line : `${line}\n`);
    },
    close() {
      closeSync(fd);
    },
  };
}
