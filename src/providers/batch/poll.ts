/**
 * Waiting for batches: settling those whose creation a crash cut short (adopted or given up),
 * polling the live ones until they end, collecting what ended (collect.ts), and ending those past
 * `--batch-timeout` (cancelled at the vendor, their requests left for a re-run).
 */
import { onAbort } from '../abort.js';
import type { BatcherOptions } from './batcher-options.js';
import type { BatchClient, BatchStatus } from './client.js';
import { collectBatch } from './collect.js';
import type { BatchRecord, BatchStore } from './store.js';

/** What polling needs of the batcher. */
export interface Polling {
  store: BatchStore;
  options: BatcherOptions;
  clientOf(record: BatchRecord): Promise<BatchClient>;
  /** A batch of this record's model failed for its size: make the next ones smaller. */
  shrink(record: BatchRecord): void;
  /** Requests left unanswered this run (their batch timed out). */
  strand(keys: readonly string[]): void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    const detach = signal ? onAbort(signal, done) : () => {};
    function done() {
      clearTimeout(timer);
      detach();
      resolve();
    }
  });

/** Finds (or gives up) the batches whose intent was recorded but not their id. */
export async function recoverBatches(polling: Polling): Promise<void> {
  const { store } = polling;
  const known = new Set(
    [...store.batches.values()].flatMap((record) => (record.id ? [record.id] : [])),
  );
  for (const record of store.batches.values()) {
    if (record.id || record.dropped) continue;
    const id = await (
      await polling.clientOf(record)
    ).adopt({
      key: record.key,
      since: record.intentAt,
      count: record.requests,
      known,
      ...(record.before ? { before: record.before } : {}),
    });
    if (id) {
      store.record({ event: 'created', batch_key: record.key, id });
      known.add(id);
    } else store.record({ event: 'abandoned', batch_key: record.key });
  }
}

const liveOf = (store: BatchStore) =>
  [...store.batches.values()].filter((record) => record.id && !record.dropped && !record.collected);

/** Polls every uncollected batch until it ends, and collects its results; returns early when `signal` aborts. */
export async function waitForBatches(polling: Polling, signal?: AbortSignal): Promise<void> {
  const { store, options } = polling;
  for (;;) {
    const live = liveOf(store);
    if (live.length === 0 || signal?.aborted) return;
    for (const record of live) {
      if (signal?.aborted) return;
      const client = await polling.clientOf(record);
      const status = await client.status(record.id!);
      if (status.vendorStatus !== record.status)
        store.record({
          event: 'status',
          batch_key: record.key,
          id: record.id!,
          status: status.vendorStatus,
          counts: status.counts,
          ...(status.failure ? { error: status.failure.reason } : {}),
        });
      options.onEvent?.({
        kind: 'status',
        ...about(record),
        status: status.vendorStatus,
        counts: status.counts,
      });
      if (status.state === 'ended') await collect(polling, record, client, status);
      else if (pastTimeout(options, record)) await timeOut(polling, record, client);
    }
    if (liveOf(store).length > 0) await sleep(options.pollMs ?? 30_000, signal);
  }
}

const about = (record: BatchRecord) => ({
  id: record.id!,
  provider: record.provider,
  model: record.model,
  requests: record.requests,
});

function pastTimeout(options: BatcherOptions, record: BatchRecord): boolean {
  const limit = options.timeoutMs;
  const since = Date.parse(record.createdAt ?? record.intentAt);
  return limit !== undefined && Date.now() - since > limit;
}

/** Stores the results of an ended batch (collect.ts); a failure for its size makes its model's next batches smaller. */
async function collect(
  polling: Polling,
  record: BatchRecord,
  client: BatchClient,
  status: BatchStatus,
): Promise<void> {
  const found = await collectBatch(polling.store, record, client, status, polling.options.limits);
  if (found.tooBig) polling.shrink(record);
  polling.store.record({ event: 'collected', batch_key: record.key, id: record.id! });
  polling.options.onEvent?.({
    kind: status.failure ? 'failed' : 'collected',
    ...about(record),
    status: status.vendorStatus,
    ...(found.reason ? { reason: found.reason } : {}),
    ...(status.failure ? { split: found.tooBig } : {}),
  });
}

/** Cancels a batch past `--batch-timeout`; its requests stay unanswered this run (resumable). */
async function timeOut(polling: Polling, record: BatchRecord, client: BatchClient): Promise<void> {
  await client.cancel(record.id!);
  polling.store.record({ event: 'timed-out', batch_key: record.key, id: record.id! });
  polling.strand(polling.store.keysOf(record.key));
  polling.options.onEvent?.({ kind: 'timed-out', ...about(record) });
}
