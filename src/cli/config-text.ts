/**
 * Reading a config file (`--config` of `run` and of `construct pipeline`) as untrusted input: a
 * regular file only, opened without blocking (a FIFO or `/dev/zero` once hung `--config` and grew
 * to 8.5 GB in 60 s), at most 1 MiB, and YAML aliases capped (a billion-laughs file was "internal
 * error"). Each refusal is one line naming the file.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Document } from 'yaml';
import { InputError, UsageError } from '../errors.js';

/** Far above any real config (the examples are under 4 KiB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** Aliases a config may expand; more is the billion-laughs attack, not a config. */
const MAX_ALIASES = 100;

/** The text of a config file, or a `UsageError` naming it: not there, not a regular file, too big. */
export function readConfigText(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UsageError(
      `--config ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`--config ${file}: not a regular file`);
    if (stat.size > MAX_CONFIG_BYTES)
      throw new UsageError(
        `--config ${file}: ${stat.size} bytes, over the ${MAX_CONFIG_BYTES}-byte cap on a config file`,
      );
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** The document as plain values, aliases capped; past the cap, an input error naming the file. */
export function configValuesOf(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new InputError([
      {
        file,
        line: 1,
        field: '(file)',
        message: `YAML aliases expand past ${MAX_ALIASES} (${(error as Error).message})`,
      },
    ]);
  }
}
