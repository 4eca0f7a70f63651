/**
 * A batch's results as untrusted input: the download is streamed to a file apb names inside the run
 * directory (opened exclusively, never through a link), refused once it passes its cap (the batch's
 * request count × the reply cap: a 3-request batch once wrote 629 MB, three times over), and every
 * line is read with the caps of an interactive reply (bytes and nesting). A line that breaks them is
 * that one request's failure, never the run's end: the batch is already paid for.
 */
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';
import { fileWriteError } from '../../atomic-write.js';
import { parseUntrustedJson } from '../../json-depth.js';
import { readLines } from '../../jsonl-lines.js';
import { formatBytes } from '../../limits.js';
import type { BatchItemResult, ResultsDownload } from './client.js';

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Raised past the cap; the caller turns it into the batch's failure. */
export class DownloadCapError extends Error {
  override name = 'DownloadCapError';
  constructor(readonly maxBytes: number) {
    super(`the results are over ${formatBytes(maxBytes)} (request count × the reply cap)`);
  }
}

/**
 * Writes a downloaded body to `file` as it arrives, stopping (and removing the file) past `maxBytes`.
 * Whatever sits at the name (a planted link, a stale file) is removed first and the file created
 * exclusively, so nothing outside the run directory is written through it. Returns the bytes kept.
 */
export async function saveCapped(
  body: ReadableStream<Uint8Array> | null,
  file: string,
  maxBytes: number,
): Promise<number> {
  if (!body) throw new Error('the results download has no body');
  rmSync(file, { force: true });
  let fd: number;
  try {
    fd = openSync(file, CREATE_FLAGS, 0o600);
  } catch (error) {
    throw fileWriteError(file, error);
  }
  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new DownloadCapError(maxBytes);
      try {
        writeSync(fd, value);
      } catch (error) {
        throw fileWriteError(file, error);
      }
    }
    return total;
  } catch (error) {
    await reader.cancel().catch(() => {});
    rmSync(file, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** The request a broken line names, read by pattern since it cannot be parsed (`"custom_id": "…"`). */
function namedId(text: string, field: string): string | null {
  const match = new RegExp(`"${field}"\\s*:\\s*"([A-Za-z0-9_.:-]{1,200})"`).exec(text);
  return match?.[1] ?? null;
}

/**
 * Yields one result per line of a downloaded results file: `itemOf` reads a parsed line; a line over
 * `maxLineBytes`, not JSON, nested past the depth cap, or not in the vendor's shape is a
 * non-retryable `parse_error` of the request it names (or of none, when it names none).
 */
export async function* resultItems(
  file: string,
  download: ResultsDownload,
  idField: string,
  itemOf: (line: Record<string, unknown>) => BatchItemResult,
): AsyncGenerator<BatchItemResult> {
  const broken = (text: string, line: number, why: string): BatchItemResult => ({
    customId: namedId(text, idField),
    ok: false,
    retryable: false,
    message: `parse_error: results line ${line} ${why}`,
  });
  for await (const { text, line, overlong } of readLines(file, undefined, {
    maxLineBytes: download.maxLineBytes,
  })) {
    if (overlong) {
      yield broken(text, line, `is over ${formatBytes(download.maxLineBytes)} (the reply cap)`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = parseUntrustedJson(text, download.jsonDepth);
    } catch (error) {
      yield broken(text, line, `is not readable JSON (${(error as Error).message})`);
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      yield broken(text, line, 'is not a JSON object');
      continue;
    }
    const item = itemOf(parsed as Record<string, unknown>);
    if (typeof item.customId === 'string' && item.customId.length > 0) yield item;
    else yield broken(text, line, `has no ${idField}`);
  }
}
