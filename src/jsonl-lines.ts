/**
 * The one streaming line reader for JSONL files (datasets and result files): lines split on `\n`
 * (as JSONL defines them; a lone `\r` is not a line end), numbered from 1, a BOM and surrounding
 * whitespace (CRLF's `\r`) removed, blank lines skipped; read as a stream of byte chunks.
 *
 * Why not `node:readline`: it decodes whole chunks, so one non-ASCII character anywhere in a 64 KB
 * chunk makes every line sliced from it a two-byte string — twice the memory, slower `JSON.parse`,
 * slower writes. Decoding line by line lets the (usual) pure-ASCII line become a one-byte string
 * through the cheap latin1 path (decoding the 31 MB benchmark dataset: 80 ms instead of 195).
 * Chunks come from a plain read stream: reading 1 MiB blocks into one reused buffer through
 * `fs/promises` measured ~50 MB more peak RSS in a full run (docs/performance.md).
 */
import { isAscii } from 'node:buffer';
import { createReadStream, readSync } from 'node:fs';
import { InputError } from './errors.js';
import { DEFAULT_LIMITS, formatBytes } from './limits.js';

/**
 * Bytes per read: a quarter of the reads of the 64 KiB default, each a round trip to libuv's thread
 * pool (~60 ms less per pass over 31 MB).
 */
const CHUNK_BYTES = 256 * 1024;

function decode(buffer: Buffer, start: number, end: number): string {
  return isAscii(buffer.subarray(start, end))
    ? buffer.toString('latin1', start, end)
    : buffer.toString('utf8', start, end);
}

/** A non-blank line of a file, its 1-based number, and where its raw bytes sit (to read it again later by position). */
export interface NumberedLine {
  line: number;
  text: string;
  /** Byte offset of the line's first byte, and its length in bytes (newline excluded, surrounding blanks included). */
  offset: number;
  bytes: number;
  /** Set when the line was longer than `maxLineBytes`: `text` is only its start. */
  overlong?: true;
}

/**
 * Reads the raw bytes of one line again (by the `offset` and `bytes` `readLines` gave) and returns
 * its trimmed text.
 */
export function readLineAt(fd: number, offset: number, bytes: number): string {
  const buffer = Buffer.allocUnsafe(bytes);
  let read = 0;
  while (read < bytes) {
    const count = readSync(fd, buffer, read, bytes - read, offset + read);
    if (count === 0) throw new Error(`the file ended before byte ${offset + bytes}`);
    read += count;
  }
  return decode(buffer, 0, bytes)
    .replace(/^\uFEFF/, '')
    .trim();
}

/** How much of an overlong line is kept (enough to name the record it belonged to). */
const OVERLONG_HEAD_BYTES = 4096;

/** What `readLines` may be told: a cap on one line's bytes. */
export interface ReadLinesOptions {
  /**
   * A line longer than this is not held in memory: it is yielded with `overlong` set and only its
   * first 4 KiB as `text`. Without it, a line over `lineBytes` is an input error.
   */
  maxLineBytes?: number;
  /** The line cap in force (`Limits.lineBytes`, `APB_MAX_LINE_BYTES`); default `DEFAULT_LIMITS`'. */
  lineBytes?: number;
}

/**
 * Yields each non-blank line of `file`, trimmed (the last line too, when the file does not end with
 * `\n`). `onBytes` sees every chunk read, in order (e.g. to hash the file in the same read). With
 * `maxLineBytes`, memory stays bounded by it: a longer line is skipped as it streams past.
 */
// size-exception: one streaming state machine (pieces of the unfinished line, the overlong skip) reads best whole
export async function* readLines(
  file: string,
  onBytes?: (bytes: Buffer) => void,
  options: ReadLinesOptions = {},
): AsyncGenerator<NumberedLine> {
  const cap = options.maxLineBytes ?? options.lineBytes ?? DEFAULT_LIMITS.lineBytes;
  const refuse = options.maxLineBytes === undefined;
  let line = 0;
  let lineStart = 0; // file offset of the current line's first byte
  const numbered = (raw: string, length: number, overlong = false): NumberedLine | null => {
    line += 1;
    const offset = lineStart;
    lineStart += length + 1;
    const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (overlong) return { line, text, offset, bytes: length, overlong: true };
    return text ? { line, text, offset, bytes: length } : null;
  };
  const pieces: Buffer[] = []; // the unfinished line, from earlier chunks
  let pending = 0; // bytes of the unfinished line so far
  let head: Buffer | null = null; // set once the unfinished line is over the cap
  const overlongLine = (length: number) => {
    if (refuse)
      throw new InputError([
        {
          file,
          line: line + 1,
          field: '(line)',
          message: `${length} bytes, over the ${formatBytes(cap)} cap on one line (APB_MAX_LINE_BYTES)`,
        },
      ]);
    const text = decode(head!, 0, head!.length);
    head = null;
    pending = 0;
    return numbered(text, length, true);
  };
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    onBytes?.(bytes);
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      let next: NumberedLine | null;
      if (head) next = overlongLine(pending + newline - start);
      else if (pending + newline - start > cap) {
        head = Buffer.from(
          Buffer.concat([...pieces, bytes.subarray(start, newline)]).subarray(
            0,
            OVERLONG_HEAD_BYTES,
          ),
        );
        pieces.length = 0;
        next = overlongLine(pending + newline - start);
      } else if (pieces.length > 0) {
        pieces.push(bytes.subarray(start, newline));
        const joined = Buffer.concat(pieces);
        pieces.length = 0;
        pending = 0;
        next = numbered(decode(joined, 0, joined.length), joined.length);
      } else next = numbered(decode(bytes, start, newline), newline - start);
      start = newline + 1;
      if (next) yield next;
    }
    if (start >= bytes.length) continue;
    pending += bytes.length - start;
    if (head) continue;
    pieces.push(bytes.subarray(start));
    if (pending > cap) {
      head = Buffer.from(Buffer.concat(pieces).subarray(0, OVERLONG_HEAD_BYTES));
      pieces.length = 0;
    }
  }
  if (head) {
    const last = overlongLine(pending);
    if (last) yield last;
  } else if (pieces.length > 0) {
    const joined = Buffer.concat(pieces);
    const last = numbered(decode(joined, 0, joined.length), joined.length);
    if (last) yield last;
  }
}
