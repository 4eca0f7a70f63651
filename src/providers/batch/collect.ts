/**
 * Collecting an ended batch: every result item stored by request key, and a result for every request
 * the batch held even when the vendor gave none. A batch is paid for when it ends, so nothing here
 * ends the run over one bad item: a broken results line is its request's `parse_error`, results past
 * their cap (or named by an id that is not an id) are final failures of the requests they held, and
 * a batch that failed as a whole stores its reason on each request — retryable (in smaller batches)
 * only when the reason was its size.
 */
import path from 'node:path';
import { ProviderError } from '../../errors.js';
import { readLines } from '../../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { BatchClient, BatchStatus, ResultsDownload } from './client.js';
import type { BatchRecord, BatchStore, StoredResult } from './store.js';

/** Room per line for the vendor's envelope around a reply body. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Where a batch's results go (files apb names after its own batch key) and how big they may get
 * under `limits`.
 */
export function downloadOf(
  store: BatchStore,
  record: BatchRecord,
  limits: Limits = DEFAULT_LIMITS,
): ResultsDownload {
  return {
    file: (part) => path.join(store.scratchDir, `${record.key}.${part}.jsonl`),
    maxBytes: Math.max(1, record.requests) * (limits.replyBytes + ENVELOPE_BYTES),
    maxLineBytes: limits.replyBytes + ENVELOPE_BYTES,
    jsonDepth: limits.jsonDepth,
  };
}

/** What collecting a batch found, for the batcher's next batches and the CLI. */
export interface Collected {
  /** The batch failed as a whole because of its size: later batches of its model are made smaller. */
  tooBig: boolean;
  /** Why the batch failed as a whole, or why its results could not be read. */
  reason?: string;
}

/** Stores the results of an ended batch (see the module comment), read under `limits`; returns what was found. */
export async function collectBatch(
  store: BatchStore,
  record: BatchRecord,
  client: BatchClient,
  status: BatchStatus,
  limits: Limits = DEFAULT_LIMITS,
): Promise<Collected> {
  const id = record.id!;
  const expected = new Set<string>();
  for await (const { text } of readLines(store.keysFile(record.key), undefined, {
    lineBytes: limits.lineBytes,
  }))
    expected.add(text);
  const fail = (key: string, message: string, retryable: boolean): StoredResult => ({
    key,
    batch: id,
    ok: false,
    message,
    retryable,
  });
  if (status.failure) {
    const tooBig = status.failure.kind === 'size' && expected.size > 1;
    const message = `batch ${id} failed: ${status.failure.reason}`;
    store.appendResults([...expected].map((key) => fail(key, message, tooBig)));
    return { tooBig, reason: status.failure.reason };
  }
  let unreadable = 0;
  let chunk: StoredResult[] = [];
  let reason: string | undefined;
  try {
    for await (const item of client.results(id, downloadOf(store, record, limits))) {
      if (item.customId === null) unreadable += 1;
      if (item.customId === null || !expected.delete(item.customId)) continue;
      chunk.push(
        item.ok
          ? { key: item.customId, batch: id, ok: true, body: item.body }
          : fail(item.customId, item.message, item.retryable),
      );
      if (chunk.length >= 500) [store.appendResults(chunk), (chunk = [])];
    }
  } catch (error) {
    // A refused download (over its cap, an id that is not one) is final for what it held; a dropped connection is not.
    if (!(error instanceof ProviderError) || error.retryable) throw error;
    reason = error.message;
  }
  for (const key of expected)
    chunk.push(
      reason
        ? fail(key, reason, false)
        : unreadable > 0
          ? fail(
              key,
              `parse_error: no readable result (${unreadable} line(s) of batch ${id} unreadable)`,
              false,
            )
          : fail(key, `no result (batch ${status.vendorStatus})`, true),
    );
  store.appendResults(chunk);
  return { tooBig: false, ...(reason ? { reason } : {}) };
}
