/**
 * A small reader of POSIX (ustar / GNU) tar archives that extracts regular files and directories
 * only, read from disk in chunks: links, devices, any path escaping the target and any member
 * that would replace the layout's own files (data/, metadata/, the archives) are refused, never
 * written. A header that is not a tar header (bad checksum, non-octal numbers), a member cut
 * short by the end of the file, and a member over the size cap are errors naming the archive.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { createAtomicWriter } from '../atomic-write.js';
import { ApbError } from '../errors.js';
import { DEFAULT_LIMITS, formatBytes, type Limits } from '../limits.js';

const BLOCK = 512;
const CHUNK = 1 << 20;

/** One archive member as read from its header. */
export interface TarEntry {
  name: string;
  size: number;
  /** '0' file, '5' directory, '2' symlink, '1' hard link, 'L' GNU long name, 'x'/'g' pax headers, … */
  type: string;
  /** Byte offset of the member's data in the archive. */
  offset: number;
}

/** A damaged or hostile archive (exit 1, the archive and the byte offset named). */
function tarError(file: string, at: number, message: string): ApbError {
  return new ApbError(
    'download',
    `${file}: ${message} (at byte ${at}); the archive is damaged or not a tar file: delete it and rerun apb data prepare`,
  );
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number | null {
  const text = field(header, start, length).trim();
  if (!text) return 0;
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : null;
}

/** The header's checksum is the sum of its bytes with the checksum field read as spaces. */
function checksumHolds(header: Buffer): boolean {
  const stored = octal(header, 148, 8);
  let sum = 0;
  for (let index = 0; index < BLOCK; index += 1)
    sum += index >= 148 && index < 156 ? 0x20 : header[index]!;
  return stored !== null && stored === sum;
}

/** Pax `path=` record, if any (long names in POSIX archives). */
function paxPath(data: Buffer): string | null {
  for (const record of data.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1]!;
  }
  return null;
}

/** The largest member extracted: the bigger of the image and the file caps. */
const memberCap = (limits: Pick<Limits, 'imageBytes' | 'fileBytes'>) =>
  Math.max(limits.imageBytes, limits.fileBytes);

/** Reads and checks one header at `position`; null at the end-of-archive blocks. */
function readHeader(
  file: string,
  fd: number,
  position: number,
  length: number,
): { size: number; type: string; header: Buffer } | null {
  const header = Buffer.alloc(BLOCK);
  const read = readSync(fd, header, 0, BLOCK, position);
  if (read === 0 || (read === BLOCK && header.every((byte) => byte === 0))) return null;
  if (read < BLOCK)
    throw tarError(
      file,
      position,
      position === 0 ? `not a tar archive (${length} bytes)` : 'the archive ends inside a header',
    );
  if (!checksumHolds(header))
    throw tarError(
      file,
      position,
      position === 0
        ? 'not a tar archive (no valid tar header)'
        : 'malformed tar header (bad checksum)',
    );
  const size = octal(header, 124, 12);
  if (size === null)
    throw tarError(file, position, 'malformed tar header (the size is not an octal number)');
  const type = field(header, 156, 1) || '0';
  if (position + BLOCK + size > length)
    throw tarError(
      file,
      position,
      `member "${field(header, 0, 100)}" is truncated: ${size} bytes announced, ${Math.max(0, length - position - BLOCK)} left`,
    );
  return { size, type, header };
}

/**
 * Lists the members of a tar file without reading their data (long names resolved); damage, or a
 * member over `limits`' bigger file cap, throws.
 */
export function listTar(file: string, limits: Limits = DEFAULT_LIMITS): TarEntry[] {
  const cap = memberCap(limits);
  const fd = openSync(file, 'r');
  const entries: TarEntry[] = [];
  let position = 0;
  let longName: string | null = null;
  try {
    const length = fstatSync(fd).size;
    for (
      let found = readHeader(file, fd, position, length);
      found;
      found = readHeader(file, fd, position, length)
    ) {
      const { size, type, header } = found;
      const data = position + BLOCK;
      if (type === 'L' || type === 'x') {
        if (size > CHUNK) throw tarError(file, position, `a ${formatBytes(size)} name record`);
        const buffer = Buffer.alloc(size);
        readSync(fd, buffer, 0, size, data);
        longName = type === 'L' ? buffer.toString('utf8').replace(/\0+$/, '') : paxPath(buffer);
      } else if (type !== 'g') {
        const prefix = field(header, 345, 155);
        const name =
          longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
        if ((type === '0' || type === '7') && size > cap)
          throw tarError(
            file,
            position,
            `member "${name}" is ${formatBytes(size)}, over the ${formatBytes(cap)} cap (APB_MAX_IMAGE_BYTES / APB_MAX_FILE_BYTES)`,
          );
        entries.push({ name, size, type, offset: data });
        longName = null;
      }
      position = data + Math.ceil(size / BLOCK) * BLOCK;
    }
  } finally {
    closeSync(fd);
  }
  return entries;
}

/** The layout's own folders: an archive member may never land there (it would replace a split or an archive). */
const PROTECTED = ['data', 'metadata', 'assets_archives'];

/** Where a member would land under `root`, or null when its name escapes it. */
export function safeTarget(root: string, name: string): string | null {
  if (!name || path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) return null;
  const target = path.resolve(root, name);
  const relative = path.relative(root, target);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? target : null;
}

/** Copies a member's bytes into `target` through the atomic writer (never through a link at the name). */
function copyMember(file: string, entry: TarEntry, target: string): void {
  const fd = openSync(file, 'r');
  const writer = createAtomicWriter(target);
  try {
    const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(entry.size, 1)));
    for (let done = 0; done < entry.size;) {
      const read = readSync(
        fd,
        buffer,
        0,
        Math.min(buffer.length, entry.size - done),
        entry.offset + done,
      );
      if (read === 0)
        throw tarError(file, entry.offset + done, `member "${entry.name}" is truncated`);
      writer.write(buffer.subarray(0, read));
      done += read;
    }
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * Extracts regular files and directories into `root`; returns what was skipped and why. A damaged
 * archive, or one with a member over `limits`' caps, throws before anything is written.
 */
export async function extractTar(
  file: string,
  root: string,
  limits: Limits = DEFAULT_LIMITS,
): Promise<{ files: number; skipped: string[] }> {
  let files = 0;
  const skipped: string[] = [];
  for (const entry of listTar(file, limits)) {
    const target = safeTarget(root, entry.name);
    const top = entry.name.split(/[\\/]/)[0];
    if (!target) skipped.push(`${entry.name}: path escapes the target folder`);
    else if (top && PROTECTED.includes(top))
      skipped.push(`${entry.name}: would replace the dataset's own ${top}/ files`);
    else if (entry.type === '5') mkdirSync(target, { recursive: true });
    else if (entry.type === '0' || entry.type === '7') {
      copyMember(file, entry, target);
      files += 1;
    } else
      skipped.push(
        `${entry.name}: ${entry.type === '2' || entry.type === '1' ? 'links are not extracted' : `member type "${entry.type}" is not extracted`}`,
      );
  }
  return { files, skipped };
}
