/**
 * Dataset files by real path: a path a dataset names (a case's `files`, an image for a report) is
 * resolved with every symlink followed and must still lie inside the dataset's own real root, be
 * a regular file (no device, FIFO, socket or directory, nothing under /proc, /sys or /dev) and fit
 * its size cap. Git-cloned datasets keep symlinks, so "inside the dataset" is never judged by the
 * path's spelling: `files/env → /proc/self/environ` sent a process's whole environment to a model.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync, constants } from 'node:fs';
import path from 'node:path';
import { formatBytes } from '../limits.js';

/** A resolved file, or why it is refused. */
export type Containment =
  | { ok: true; realPath: string; bytes: number }
  | { ok: false; reason: RefusalReason; message: string; bytes?: number };

/** Why a path is refused, for callers that word it their own way. */
export type RefusalReason = 'outside' | 'missing' | 'unreadable' | 'not-regular' | 'too-big';

const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];
const realRoots = new Map<string, string>();

/** The real path of a dataset root (cached: it is asked once per file). */
export function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      real = path.resolve(root);
    }
    realRoots.set(root, real);
  }
  return real;
}

const inside = (parent: string, child: string) => {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/**
 * Resolves `relative` against the dataset `root` by real path and checks kind and size (`maxBytes`,
 * named by `capName`).
 */
export function containedFile(
  root: string,
  relative: string,
  maxBytes: number,
  capName: string,
): Containment {
  if (path.isAbsolute(relative))
    return {
      ok: false,
      reason: 'outside',
      message: `path "${relative}" must be relative to the dataset root`,
    };
  const spelled = path.resolve(root, relative);
  if (!inside(path.resolve(root), spelled))
    return { ok: false, reason: 'outside', message: `path "${relative}" escapes the dataset root` };
  let real: string;
  try {
    real = realpathSync(spelled);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason: code === 'ENOENT' ? 'missing' : 'unreadable',
      message:
        code === 'ENOENT'
          ? `file "${relative}" does not exist`
          : `file "${relative}" cannot be read (${code ?? (error as Error).message})`,
    };
  }
  const rootReal = realRoot(root);
  if (
    !inside(rootReal, real) ||
    PSEUDO_FILE_SYSTEMS.some((system) => real === system || real.startsWith(`${system}/`))
  ) {
    return {
      ok: false,
      reason: 'outside',
      message: `file "${relative}" is a link that leaves the dataset root (to ${real}); refused`,
    };
  }
  return checkRegular(real, relative, maxBytes, capName);
}

function checkRegular(
  real: string,
  relative: string,
  maxBytes: number,
  capName: string,
): Containment {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then says what it is.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return {
      ok: false,
      reason: 'unreadable',
      message: `file "${relative}" cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      return {
        ok: false,
        reason: 'not-regular',
        message: `file "${relative}" is not a regular file (${stat.isDirectory() ? 'a directory' : 'a device, FIFO or socket'}); refused`,
      };
    if (stat.size > maxBytes)
      return {
        ok: false,
        reason: 'too-big',
        bytes: stat.size,
        message: `file "${relative}" is ${formatBytes(stat.size)}, over the ${formatBytes(maxBytes)} cap (${capName})`,
      };
    return { ok: true, realPath: real, bytes: stat.size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file already resolved by `containedFile`, again without following a link at its name
 * and within `maxBytes`: the file may have been swapped between the check and the read.
 */
export function readContainedFile(realPath: string, maxBytes: number): Buffer {
  const fd = openSync(realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${realPath} is no longer a regular file`);
    if (stat.size > maxBytes)
      throw new Error(
        `${realPath} is ${formatBytes(stat.size)}, over the ${formatBytes(maxBytes)} cap`,
      );
    const buffer = Buffer.alloc(stat.size);
    let offset = 0;
    while (offset < stat.size) {
      const read = readSync(fd, buffer, offset, stat.size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return offset === stat.size ? buffer : buffer.subarray(0, offset);
  } finally {
    closeSync(fd);
  }
}
