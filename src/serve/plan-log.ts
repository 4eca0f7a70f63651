/**
 * `serve-plans.jsonl`, the record of every conversation's plan, on the run-directory core: the
 * `--out` folder is held with the one-writer lock for the server's lifetime (a second server on
 * it is refused, naming the first), and the lines go through a rundir JSONL store with the file's
 * schema (a torn last line left by a crash is cut on open; a planted symbolic link is refused, so
 * apb never appends elsewhere). Free space is checked before a new conversation's plan is paid
 * for, so a full disk is a 507 up front, not a plan bought and lost.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';
import type { PlanRecord } from '../execution/plans.js';
import { ApbError, UsageError } from '../errors.js';
import { redact } from '../redact.js';
import { createJsonlStore, type JsonlStore } from '../rundir/jsonl-store.js';
import type { LineSchema } from '../rundir/line-schema.js';
import { acquireRunLock, type RunLock } from '../rundir/lock.js';
import { RUN_FILES, runFileLineSchema, type RunFileValue } from '../rundir/schemas/index.js';
import type { ServeFailure } from './failures.js';

/** Free space below which a new conversation is refused (its plan could not be recorded). */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/**
 * One conversation's plan as the log writes it: a version-0 line (no `schema_version`), which the
 * file's schema reads through its migration.
 */
export type ServePlanEntry = Omit<RunFileValue<'servePlans'>, 'schema_version' | 'plan'> & {
  plan: PlanRecord;
};

/** The plan log of one `apb serve`. */
export interface PlanLog {
  readonly file: string;
  /** Whether opening cut a torn last line left by a crash. */
  readonly tornLineDropped: boolean;
  /** A refusal when the disk is too full to record a plan, else null. */
  checkSpace(): ServeFailure | null;
  /** Appends one entry, redacted as written (a failed write throws, naming the file). */
  append(entry: ServePlanEntry): void;
  /** Closes the file and releases the folder's lock (idempotent). */
  close(): void;
}

/** The store's errors for a symbolic link at the file's name, in serve's words. */
function refusingLinks(file: string, error: unknown): unknown {
  const cause = error instanceof ApbError ? error.cause : error;
  return (cause as NodeJS.ErrnoException | undefined)?.code === 'ELOOP'
    ? new UsageError(`${file} is a symbolic link; apb serve will not follow it`)
    : error;
}

function openStore(file: string): JsonlStore<ServePlanEntry> {
  try {
    // The schema checks what readers rely on; the plan's parsed `Attempt` is settings/' own type.
    const schema = runFileLineSchema('servePlans') as LineSchema<ServePlanEntry>;
    return createJsonlStore(file, schema);
  } catch (error) {
    throw refusingLinks(file, error);
  }
}

function spaceCheck(folder: string, minFreeBytes: number): () => ServeFailure | null {
  return () => {
    const stats = statfsSync(folder);
    const free = stats.bavail * stats.bsize;
    if (free >= minFreeBytes) return null;
    return {
      status: 507,
      kind: 'storage',
      message:
        `apb serve: ${folder} has ${free} bytes free; ` +
        "a new conversation's plan could not be recorded, so none is made",
    };
  };
}

/** Locks DIR and opens DIR/serve-plans.jsonl to append to (created if absent; no symlink). */
export function openPlanLog(dir: string, minFreeBytes = MIN_FREE_BYTES): PlanLog {
  const folder = path.resolve(dir);
  const lock: RunLock = acquireRunLock(folder, 'serve');
  const file = path.join(folder, RUN_FILES.servePlans.file);
  let store: JsonlStore<ServePlanEntry>;
  try {
    store = openStore(file);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    file,
    tornLineDropped: store.tornLineDropped,
    checkSpace: spaceCheck(folder, minFreeBytes),
    append(entry) {
      // Redacted as the line's whole text, as the log always was; that text parsed back is what
      // the store writes, and it serialises to the same text.
      store.append(JSON.parse(redact(JSON.stringify(entry))) as ServePlanEntry);
    },
    close() {
      store.close();
      lock.release();
    },
  };
}
