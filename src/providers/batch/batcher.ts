/**
 * `--batch`: calls to openai, anthropic and google models go through the vendors' batch APIs. A call
 * is answered from a collected batch result when there is one; otherwise its request joins a batch
 * (or is already waiting in one) and the call is deferred (`BatchDeferredError`): the run records
 * nothing for that case yet. Between passes of the run, the batcher submits what was deferred and
 * waits for every batch to end. A request is in at most one live batch, and batches are found
 * again from the run directory, so a re-run never pays twice. Items that failed go into a new
 * batch (up to `maxAttempts` in all), then become ordinary call failures.
 */
import { closeSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { openAppendNoFollow, writeFileAtomic } from '../../atomic-write.js';
import { ApbError, ProviderError } from '../../errors.js';
import { readLines } from '../../jsonl-lines.js';
import { onAbort } from '../abort.js';
import { cacheKey, type CacheScope } from '../cache.js';
import type { Provider, ProviderRequest, ProviderResult } from '../provider.js';
import { captureRequest, replayResult, type AdapterFactory } from './capture.js';
import type { BatchClient, BatchCounts, BatchProviderId } from './client.js';
import { createBatchClient } from './clients.js';
import { BatchStore, type BatchRecord, type StoredResult } from './store.js';

/** Thrown for a call whose answer will come from a batch: the case stays unrecorded this pass. */
export class BatchDeferredError extends ApbError {
  constructor(id: string) {
    super('batch-deferred', `${id}: answered through a provider batch; waiting for it`);
  }
}

/** Progress of the batches, for the CLI. */
export interface BatchEventInfo {
  kind: 'submitted' | 'status' | 'collected' | 'resumed';
  id: string;
  provider: string;
  model: string;
  requests: number;
  status?: string;
  counts?: BatchCounts | null;
}

/** How the batcher works. */
export interface BatcherOptions {
  /** Between status requests (default 30 s). */
  pollMs?: number;
  /** Batch attempts per request before its failure is final (default 3: the first and two more). */
  maxAttempts?: number;
  onEvent?: (event: BatchEventInfo) => void;
  /** Test seam: the vendor client for a model (default: the vendor SDK's). */
  createClient?: typeof createBatchClient;
}

/** Who a batch provider calls: one model of a batch-capable vendor at one base URL. */
export interface BatchTarget {
  id: string;
  provider: BatchProviderId;
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  scope: CacheScope;
}

/** Requests being gathered into the next batch of one model. */
interface OpenBatch {
  key: string;
  input: number;
  keys: Set<string>;
  bytes: number;
}

interface Lane {
  target: BatchTarget;
  client: Promise<BatchClient>;
  open: OpenBatch | null;
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

/** The batches of one run directory. */
export class Batcher {
  private readonly lanes = new Map<string, Lane>();
  private readonly submissions = new Set<Promise<void>>();
  private deferred = 0;
  private sequence = 0;
  private fatal: unknown = null;

  private constructor(
    private readonly store: BatchStore,
    private readonly options: BatcherOptions,
  ) {}

  /** Opens the batches a run directory already has (submitted, ended, collected) before any call. */
  static async open(dir: string, options: BatcherOptions = {}): Promise<Batcher> {
    return new Batcher(await BatchStore.open(dir), options);
  }

  /** Calls deferred since `startPass`, and batches submitted but not yet collected. */
  get pending(): { deferred: number; outstanding: number } {
    return {
      deferred: this.deferred,
      outstanding: [...this.store.batches.values()].filter(
        (record) => record.id && !record.dropped && !record.collected,
      ).length,
    };
  }

  startPass(): void {
    this.deferred = 0;
  }

  private lane(target: BatchTarget): Lane {
    const id = `${target.provider} ${target.model} ${target.baseUrl}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      const create = this.options.createClient ?? createBatchClient;
      lane = {
        target,
        client: create(target.provider, {
          model: target.model,
          apiKey: target.apiKey,
          baseUrl: target.baseUrl,
        }),
        open: null,
      };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  /** The provider layer for one model: answers from results, defers everything else. */
  provider(target: BatchTarget, adapter: AdapterFactory): Provider {
    const lane = this.lane(target);
    return {
      id: target.id,
      generate: async (request: ProviderRequest): Promise<ProviderResult> => {
        if (this.fatal) throw this.fatal;
        const key = cacheKey(target.scope, request);
        const stored = this.store.resultOf(key);
        const attempts = this.options.maxAttempts ?? 3;
        if (stored?.ok) {
          const result = await replayResult(adapter, request, stored.body);
          return { ...result, attempts: stored.failures + 1, batch: { id: stored.batch } };
        }
        if (
          stored &&
          !this.store.waitingIn(key) &&
          (!stored.retryable || stored.failures >= attempts)
        ) {
          throw new ProviderError({
            provider: target.id,
            kind: stored.retryable ? 'server' : 'client',
            retryable: false,
            message: `${target.id}: batch item failed: ${stored.message ?? 'no result'} (after ${stored.failures} batch attempt(s))`,
          });
        }
        this.deferred += 1;
        if (this.store.waitingIn(key) || lane.open?.keys.has(key))
          throw new BatchDeferredError(target.id);
        const captured = await captureRequest(adapter, target.baseUrl, request);
        this.add(lane, await lane.client, key, captured);
        throw new BatchDeferredError(target.id);
      },
    };
  }

  private add(
    lane: Lane,
    client: BatchClient,
    key: string,
    captured: Parameters<BatchClient['inputLine']>[1],
  ): void {
    if (lane.open?.keys.has(key)) return;
    const line = `${client.inputLine(key, captured)}\n`;
    const bytes = Buffer.byteLength(line);
    if (
      lane.open &&
      (lane.open.keys.size + 1 > client.limits.requests ||
        lane.open.bytes + bytes > client.limits.bytes)
    )
      this.seal(lane);
    if (!lane.open) {
      const batchKey = `apb-${Date.now().toString(36)}-${process.pid.toString(36)}-${(this.sequence++).toString(36)}`;
      lane.open = {
        key: batchKey,
        input: openAppendNoFollow(this.inputFile(batchKey)),
        keys: new Set(),
        bytes: 0,
      };
    }
    writeSync(lane.open.input, line);
    lane.open.keys.add(key);
    lane.open.bytes += bytes;
  }

  private inputFile(batchKey: string): string {
    return path.join(this.store.scratchDir, `${batchKey}.input.jsonl`);
  }

  /** Closes the lane's open batch and submits it in the background (`flush` waits for it). */
  private seal(lane: Lane): void {
    const open = lane.open;
    if (!open) return;
    lane.open = null;
    closeSync(open.input);
    const submission = this.submit(lane, open).catch((error: unknown) => {
      this.fatal ??= error;
    });
    this.submissions.add(submission);
    void submission.finally(() => this.submissions.delete(submission));
  }

  private async submit(lane: Lane, open: OpenBatch): Promise<void> {
    const { target } = lane;
    writeFileAtomic(this.store.keysFile(open.key), `${[...open.keys].join('\n')}\n`);
    // The intent is on disk before the vendor hears of the batch: a re-run can then look for it.
    this.store.record({
      event: 'intent',
      batch_key: open.key,
      provider: target.provider,
      model: target.model,
      base_url: target.baseUrl,
      requests: open.keys.size,
    });
    this.store.markSubmitted(open.key, [...open.keys]);
    const client = await lane.client;
    try {
      const id = await client.submit(open.key, this.inputFile(open.key), open.keys.size);
      this.store.record({ event: 'created', batch_key: open.key, id });
      this.options.onEvent?.({
        kind: 'submitted',
        id,
        provider: target.provider,
        model: target.model,
        requests: open.keys.size,
      });
    } catch (error) {
      this.store.record({
        event: 'submit-failed',
        batch_key: open.key,
        error: (error as Error).message,
      });
      throw error;
    }
    rmSync(this.inputFile(open.key), { force: true });
  }

  /** Submits every batch still being gathered, and settles batches whose creation a crash cut short. */
  async flush(): Promise<void> {
    for (const lane of this.lanes.values()) this.seal(lane);
    await Promise.all([...this.submissions]);
    if (this.fatal) throw this.fatal;
  }

  /** Finds (or gives up) the batches whose intent was recorded but not their id. */
  async recover(): Promise<void> {
    const known = new Set(
      [...this.store.batches.values()].flatMap((record) => (record.id ? [record.id] : [])),
    );
    for (const record of this.store.batches.values()) {
      if (record.id || record.dropped) continue;
      const id = await (
        await this.clientOf(record)
      ).adopt(record.key, record.intentAt, record.requests, known);
      if (id) {
        this.store.record({ event: 'created', batch_key: record.key, id });
        known.add(id);
      } else this.store.record({ event: 'abandoned', batch_key: record.key });
    }
  }

  /** Polls every uncollected batch until it ends, and collects its results; returns early when `signal` aborts. */
  async waitAll(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const live = [...this.store.batches.values()].filter(
        (record) => record.id && !record.dropped && !record.collected,
      );
      if (live.length === 0 || signal?.aborted) return;
      for (const record of live) {
        if (signal?.aborted) return;
        const client = await this.clientOf(record);
        const status = await client.status(record.id!);
        if (status.vendorStatus !== record.status)
          this.store.record({
            event: 'status',
            batch_key: record.key,
            id: record.id!,
            status: status.vendorStatus,
            counts: status.counts,
          });
        this.options.onEvent?.({
          kind: 'status',
          id: record.id!,
          provider: record.provider,
          model: record.model,
          requests: record.requests,
          status: status.vendorStatus,
          counts: status.counts,
        });
        if (status.state === 'ended') await this.collect(record, client, status.vendorStatus);
      }
      if (
        [...this.store.batches.values()].some(
          (record) => record.id && !record.dropped && !record.collected,
        )
      )
        await sleep(this.options.pollMs ?? 30_000, signal);
    }
  }

  /** The client of a recorded batch: the lane of its model, which this run's providers opened. */
  private clientOf(record: BatchRecord): Promise<BatchClient> {
    const lane = this.lanes.get(`${record.provider} ${record.model} ${record.baseUrl}`);
    if (!lane)
      throw new ApbError(
        'batch',
        `${this.store.logFile}: batch ${record.id ?? record.key} is for ${record.provider}:${record.model} at ${record.baseUrl}, which this run does not call`,
      );
    return lane.client;
  }

  /** Stores every result item of an ended batch; a request the batch holds but answered nothing for is a retryable failure. */
  private async collect(
    record: BatchRecord,
    client: BatchClient,
    vendorStatus: string,
  ): Promise<void> {
    const expected = new Set<string>();
    for await (const { text } of readLines(this.store.keysFile(record.key))) expected.add(text);
    let chunk: StoredResult[] = [];
    for await (const item of client.results(record.id!, this.store.scratchDir)) {
      if (!expected.delete(item.customId)) continue;
      chunk.push(
        item.ok
          ? { key: item.customId, batch: record.id!, ok: true, body: item.body }
          : {
              key: item.customId,
              batch: record.id!,
              ok: false,
              message: item.message,
              retryable: item.retryable,
            },
      );
      if (chunk.length >= 500) [this.store.appendResults(chunk), (chunk = [])];
    }
    for (const key of expected)
      chunk.push({
        key,
        batch: record.id!,
        ok: false,
        message: `no result (batch ${vendorStatus})`,
        retryable: true,
      });
    this.store.appendResults(chunk);
    this.store.record({ event: 'collected', batch_key: record.key, id: record.id! });
    this.options.onEvent?.({
      kind: 'collected',
      id: record.id!,
      provider: record.provider,
      model: record.model,
      requests: record.requests,
      status: vendorStatus,
    });
  }
}
