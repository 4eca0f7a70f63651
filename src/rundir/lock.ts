/**
 * One writer per run directory. Every command that writes a run directory (run, judge, score,
 * refine, exec, merge, construct, serve --out) holds `DIR/.apb-lock` while it works: a file
 * created exclusively, holding the holder's pid, host, command and start time. A second writer is
 * refused (exit 2) with the directory and the holder named. A lock whose process is gone on this
 * host is stale and taken over; one from another host is never guessed at. The lock is released
 * on every exit path the process survives to see (return, throw, signal handlers,
 * `process.exit`); after SIGKILL or a power cut it is left behind and found stale by the next
 * writer.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
  constants,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileWriteError } from '../atomic-write.js';
import { ApbError } from '../errors.js';

/** The lock file's name inside a run directory. */
export const RUN_LOCK_FILE = '.apb-lock';

/** What the lock file says about its holder. */
export interface RunLockHolder {
  pid: number;
  host: string;
  command: string;
  started_at: string;
  /** Random per acquisition: release removes the file only while it is still this holder's. */
  token: string;
}

/** A held lock. `release` is idempotent. */
export interface RunLock {
  readonly dir: string;
  readonly file: string;
  readonly holder: RunLockHolder;
  release(): void;
}

/** Another process writes this run directory (exit 2: the user asked for something that cannot happen now). */
export class RunLockedError extends ApbError {
  constructor(
    readonly dir: string,
    readonly holder: RunLockHolder | null,
  ) {
    const who = holder
      ? `apb ${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.started_at})`
      : 'another apb process';
    super(
      'locked',
      `${dir} is being written by ${who}; wait for it to finish or use another --out (if that process is gone for good, remove ${path.join(dir, RUN_LOCK_FILE)})`,
    );
  }
}

/** Locks this process holds, released from the `exit` handler if nothing else released them. */
const held = new Map<string, RunLockHolder>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [file, holder] of held) removeIfOurs(file, holder);
  });
}

function readHolder(file: string): RunLockHolder | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunLockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? (value as RunLockHolder)
      : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stale: written on this host by a process that no longer runs (or by this very pid in an earlier
 * life, as in a container where apb is always pid 1). A lock file too new to hold its JSON yet, or
 * from another host, is never stale.
 */
function isStale(file: string, holder: RunLockHolder | null): boolean {
  if (!holder) return ageMs(file) > 10_000;
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !held.has(file);
  return !processAlive(holder.pid);
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function removeIfOurs(file: string, holder: RunLockHolder): void {
  if (readHolder(file)?.token === holder.token) unlinkQuietly(file);
}

/** Creates the lock file exclusively; false when it exists. */
function tryCreate(file: string, holder: RunLockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw fileWriteError(file, error);
  }
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock under a short-lived break lock, deciding staleness again while holding it:
 * two writers that both saw the same stale lock cannot both remove it and then each other's.
 */
function breakStale(file: string): void {
  const breaker = `${file}.break`;
  const me: RunLockHolder = {
    pid: process.pid,
    host: hostname(),
    command: 'break',
    started_at: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  if (!tryCreate(breaker, me)) {
    if (isStale(breaker, readHolder(breaker))) unlinkQuietly(breaker);
    return;
  }
  try {
    if (existsSync(file) && isStale(file, readHolder(file))) unlinkQuietly(file);
  } finally {
    removeIfOurs(breaker, me);
  }
}

/** Takes the run directory's lock (creating the directory), or throws `RunLockedError` naming the holder. */
export function acquireRunLock(dir: string, command: string): RunLock {
  const createdDir = !existsSync(dir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw fileWriteError(dir, error);
  }
  const file = path.join(dir, RUN_LOCK_FILE);
  const holder: RunLockHolder = {
    pid: process.pid,
    host: hostname(),
    command,
    started_at: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  let acquired = tryCreate(file, holder);
  for (let attempt = 0; !acquired && attempt < 3; attempt += 1) {
    const current = readHolder(file);
    if (!isStale(file, current)) throw new RunLockedError(dir, current);
    breakStale(file);
    acquired = tryCreate(file, holder);
  }
  if (!acquired) throw new RunLockedError(dir, readHolder(file));
  held.set(file, holder);
  installExitHook();
  let released = false;
  return {
    dir,
    file,
    holder,
    release() {
      if (released) return;
      released = true;
      held.delete(file);
      removeIfOurs(file, holder);
      // A directory this lock created and nothing else used (e.g. the input was refused) goes too.
      if (createdDir) {
        try {
          rmdirSync(dir);
        } catch {
          // not empty: it holds a run
        }
      }
    },
  };
}

/** Takes the locks of several directories in order; if one is held, releases those taken and throws. */
export function acquireRunLocks(dirs: readonly string[], command: string): RunLock[] {
  const locks: RunLock[] = [];
  try {
    for (const dir of dirs) locks.push(acquireRunLock(dir, command));
  } catch (error) {
    for (const lock of locks.reverse()) lock.release();
    throw error;
  }
  return locks;
}

/** Runs `work` holding the run directory's lock, released however `work` ends. */
export async function withRunLock<T>(
  dir: string,
  command: string,
  work: (lock: RunLock) => Promise<T>,
): Promise<T> {
  const lock = acquireRunLock(dir, command);
  try {
    return await work(lock);
  } finally {
    lock.release();
  }
}

/** The holder of a run directory's lock, if a live one holds it (for viewers and status lines). */
export function runLockHolder(dir: string): RunLockHolder | null {
  const file = path.join(dir, RUN_LOCK_FILE);
  if (!existsSync(file)) return null;
  const holder = readHolder(file);
  return isStale(file, holder) ? null : holder;
}
