/**
 * A small reader of POSIX (ustar / GNU) tar archives that extracts regular files and directories
 * only, streamed from disk: links, devices and any path escaping the target are refused, never written.
 */
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const BLOCK = 512;

/** One archive member as read from its header. */
export interface TarEntry {
  name: string;
  size: number;
  /** '0' file, '5' directory, '2' symlink, '1' hard link, 'L' GNU long name, 'x'/'g' pax headers, … */
  type: string;
  /** Byte offset of the member's data in the archive. */
  offset: number;
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  const text = field(header, start, length).trim();
  return text ? parseInt(text, 8) : 0;
}

/** Pax `path=` record, if any (long names in POSIX archives). */
function paxPath(data: Buffer): string | null {
  for (const record of data.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1]!;
  }
  return null;
}

/** Lists the members of a tar file without reading their data (long names resolved). */
export function listTar(file: string): TarEntry[] {
  const fd = openSync(file, 'r');
  const entries: TarEntry[] = [];
  const header = Buffer.alloc(BLOCK);
  let position = 0;
  let longName: string | null = null;
  try {
    while (readSync(fd, header, 0, BLOCK, position) === BLOCK && header.some((byte) => byte !== 0)) {
      const size = octal(header, 124, 12);
      const type = field(header, 156, 1) || '0';
      const prefix = field(header, 345, 155);
      const data = position + BLOCK;
      if (type === 'L' || type === 'x') {
        const buffer = Buffer.alloc(size);
        readSync(fd, buffer, 0, size, data);
        longName = type === 'L' ? buffer.toString('utf8').replace(/\0+$/, '') : paxPath(buffer);
      } else if (type !== 'g') {
        const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
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

/** Where a member would land under `root`, or null when its name escapes it. */
export function safeTarget(root: string, name: string): string | null {
  if (!name || path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) return null;
  const target = path.resolve(root, name);
  const relative = path.relative(root, target);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? target : null;
}

/** Extracts regular files and directories into `root`; returns what was skipped and why. */
export async function extractTar(file: string, root: string): Promise<{ files: number; skipped: string[] }> {
  let files = 0;
  const skipped: string[] = [];
  for (const entry of listTar(file)) {
    const target = safeTarget(root, entry.name);
    if (!target) skipped.push(`${entry.name}: path escapes the target folder`);
    else if (entry.type === '5') mkdirSync(target, { recursive: true });
    else if (entry.type === '0' || entry.type === '7') {
      mkdirSync(path.dirname(target), { recursive: true });
      if (entry.size === 0) closeSync(openSync(target, 'w'));
      else await pipeline(createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 }), createWriteStream(target));
      files += 1;
    } else skipped.push(`${entry.name}: ${entry.type === '2' || entry.type === '1' ? 'links are not extracted' : `member type "${entry.type}" is not extracted`}`);
  }
  return { files, skipped };
}
