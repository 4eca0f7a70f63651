/**
 * The one way apb writes a file it owns (manifest, scores, reports, rewritten JSONL): a fresh
 * temporary file beside the target, opened exclusively and without following links, synced, then
 * renamed over the target. A reader never sees half a file, a crash (or a full disk) leaves the
 * old file whole, and a symlink planted at the target or at a temporary name is never written
 * through: rename replaces the link itself, and the exclusive open refuses an existing name.
 */
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApbError } from './errors.js';

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;

/** A file being written atomically: `write` chunks, then `commit` (rename into place) or `abort`. */
export interface AtomicWriter {
  readonly file: string;
  write(chunk: string | Uint8Array): void;
  commit(): void;
  abort(): void;
}

/** An error from writing a file, reworded as one line naming the file (ENOSPC, EACCES, EROFS, …). */
export function fileWriteError(file: string, error: unknown): ApbError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOSPC'
      ? 'no space left on the device'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : code === 'EDQUOT'
            ? 'disk quota exceeded'
            : code === 'ELOOP'
              ? 'it is a symbolic link (refused)'
              : ((error as Error)?.message ?? String(error));
  return new ApbError('environment', `cannot write ${file}: ${reason}`, { cause: error });
}

/** Opens an atomic writer for `file` (its directory is created when missing). */
export function createAtomicWriter(file: string): AtomicWriter {
  const dir = path.dirname(file);
  let fd: number;
  let temp: string;
  try {
    mkdirSync(dir, { recursive: true });
    temp = path.join(
      dir,
      `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
    );
    fd = openSync(temp, CREATE_FLAGS, 0o644);
  } catch (error) {
    throw fileWriteError(file, error);
  }
  let open = true;
  const fail = (error: unknown): never => {
    abort();
    throw fileWriteError(file, error);
  };
  function abort(): void {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(temp);
    } catch {
      // never created or already gone
    }
  }
  return {
    file,
    write(chunk) {
      if (!open) throw new ApbError('internal', `write after commit or abort: ${file}`);
      try {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
      } catch (error) {
        fail(error);
      }
    },
    commit() {
      if (!open) throw new ApbError('internal', `commit after commit or abort: ${file}`);
      try {
        fsyncSync(fd);
        closeSync(fd);
        open = false;
        refuseDirectoryTarget(file);
        renameSync(temp, file);
      } catch (error) {
        open = true;
        fail(error);
      }
    },
    abort,
  };
}

/** A directory at the target would swallow the rename (EISDIR at best); name it plainly instead. */
function refuseDirectoryTarget(file: string): void {
  let isDirectory = false;
  try {
    isDirectory = lstatSync(file).isDirectory();
  } catch {
    return;
  }
  if (isDirectory)
    throw Object.assign(new Error('a directory of that name is in the way'), { code: 'EISDIR' });
}

/** Writes a whole file atomically (temp file + rename), never through a symlink. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const writer = createAtomicWriter(file);
  writer.write(data);
  writer.commit();
}

/** Opens `file` for appending without following a symlink at its name (a planted link is refused, ELOOP). */
export function openAppendNoFollow(file: string): number {
  try {
    return openSync(file, APPEND_FLAGS, 0o644);
  } catch (error) {
    throw fileWriteError(file, error);
  }
}

/** One synchronous append; a full disk (or any write error) is one line naming the file, and the lines before it stay. */
export function appendLineSync(fd: number, file: string, text: string): void {
  try {
    writeSync(fd, text);
  } catch (error) {
    throw fileWriteError(file, error);
  }
}
