/**
 * `--batch`: calls to openai, anthropic and google models go through the vendors' batch APIs. A call
 * is answered from a collected batch result when there is one; otherwise its request joins a batch
 * (or is already waiting in one) and the call is deferred (`BatchDeferredError`): the run records
 * nothing for that case yet. Between passes of the run, the batcher submits what was deferred and
 * waits for every batch to end. A request is in at most one live batch, and batches are found
 * again from the run directory, so a re-run never pays twice. Items that failed go into a new
 * batch (up to `maxAttempts` in all), then become ordinary call failures. A batch holds at most
 * `maxRequests` requests and `maxTokens` estimated tokens (the vendors' enqueued limits; halved for
 * a model after a batch of it failed for its size), and one still running after `timeoutMs` is
 * cancelled and its requests left for a re-run (interactive, without `--batch`).
 */
import { closeSync, rmSync } from 'node:fs';
import path from 'node:path';
import { appendLineSync, openAppendNoFollow, writeFileAtomic } from '../../atomic-write.js';
import { ApbError, ProviderError } from '../../errors.js';
import { cacheKey } from '../cache.js';
import { estimateRequestTokens } from '../estimate.js';
import type { Provider, ProviderRequest, ProviderResult } from '../provider.js';
import { captureRequest, replayResult, type AdapterFactory } from './capture.js';
import type { BatcherOptions, BatchTarget } from './batcher-options.js';
import type { BatchClient } from './client.js';
import { createBatchClient } from './clients.js';
import { recoverBatches, waitForBatches, type Polling } from './poll.js';
import { BatchStore, type BatchRecord } from './store.js';

/** Thrown for a call whose answer will come from a batch: the case stays unrecorded this pass. */
export class BatchDeferredError extends ApbError {
  constructor(id: string) {
    super('batch-deferred', `${id}: answered through a provider batch; waiting for it`);
  }
}

export type { BatchEventInfo, BatcherOptions, BatchTarget } from './batcher-options.js';

/** Requests being gathered into the next batch of one model. */
interface OpenBatch {
  key: string;
  input: number;
  keys: Set<string>;
  bytes: number;
  tokens: number;
}

interface Lane {
  target: BatchTarget;
  client: Promise<BatchClient>;
  open: OpenBatch | null;
  /** Most requests and tokens the next batch may hold (made smaller after a batch failed for its size). */
  maxRequests: number;
  maxTokens: number;
}

/** The batches of one run directory. */
export class Batcher {
  private readonly lanes = new Map<string, Lane>();
  private readonly submissions = new Set<Promise<void>>();
  private deferred = 0;
  /** Requests of batches ended by `--batch-timeout`: left unanswered this run. */
  private readonly stranded = new Set<string>();
  private sequence = 0;
  private fatal: unknown = null;

  private constructor(
    private readonly store: BatchStore,
    private readonly options: BatcherOptions,
  ) {}

  /** Opens the batches a run directory already has (submitted, ended, collected) before any call. */
  static async open(dir: string, options: BatcherOptions = {}): Promise<Batcher> {
    return new Batcher(await BatchStore.open(dir, options.limits?.lineBytes), options);
  }

  /** Calls deferred since `startPass`, and batches submitted but not yet collected. */
  get pending(): { deferred: number; outstanding: number; stranded: number } {
    return {
      deferred: this.deferred,
      stranded: this.stranded.size,
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
          ...(this.options.limits ? { lineBytes: this.options.limits.lineBytes } : {}),
        }),
        open: null,
        maxRequests: this.options.maxRequests ?? Infinity,
        maxTokens: this.options.maxTokens ?? Infinity,
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
        // Left by --batch-timeout: unrecorded this run (not counted as deferred, so no new batch is waited for).
        if (this.stranded.has(key)) throw new BatchDeferredError(target.id);
        this.deferred += 1;
        if (this.store.waitingIn(key) || lane.open?.keys.has(key))
          throw new BatchDeferredError(target.id);
        const captured = await captureRequest(adapter, target.baseUrl, request);
        const tokens = estimateRequestTokens(request).total;
        this.add(lane, await lane.client, key, captured, tokens);
        throw new BatchDeferredError(target.id);
      },
    };
  }

  private add(
    lane: Lane,
    client: BatchClient,
    key: string,
    captured: Parameters<BatchClient['inputLine']>[1],
    tokens: number,
  ): void {
    if (lane.open?.keys.has(key)) return;
    const line = `${client.inputLine(key, captured)}\n`;
    const bytes = Buffer.byteLength(line);
    const open = lane.open;
    if (
      open &&
      (open.keys.size + 1 > Math.min(client.limits.requests, lane.maxRequests) ||
        open.bytes + bytes > client.limits.bytes ||
        open.tokens + tokens > lane.maxTokens)
    )
      this.seal(lane);
    if (!lane.open) {
      const batchKey = `apb-${Date.now().toString(36)}-${process.pid.toString(36)}-${(this.sequence++).toString(36)}`;
      lane.open = {
        key: batchKey,
        input: openAppendNoFollow(this.inputFile(batchKey)),
        keys: new Set(),
        bytes: 0,
        tokens: 0,
      };
    }
    appendLineSync(lane.open.input, this.inputFile(lane.open.key), line);
    lane.open.keys.add(key);
    lane.open.bytes += bytes;
    lane.open.tokens += tokens;
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
    const client = await lane.client;
    // Vendors without a tag of ours: the batches that exist before, so the new one can be told apart.
    const before = await client.snapshot();
    // The intent is on disk before the vendor hears of the batch: a re-run can then look for it.
    this.store.record({
      event: 'intent',
      batch_key: open.key,
      provider: target.provider,
      model: target.model,
      base_url: target.baseUrl,
      requests: open.keys.size,
      ...(before.length > 0 ? { before } : {}),
    });
    this.store.markSubmitted(open.key, [...open.keys]);
    try {
      const id = await client.submit(open.key, this.inputFile(open.key), open.keys.size, before);
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

  /** What polling needs of the batcher (poll.ts). */
  private get polling(): Polling {
    return {
      store: this.store,
      options: this.options,
      clientOf: (record) => this.clientOf(record),
      shrink: (record) => {
        const lane = this.lanes.get(`${record.provider} ${record.model} ${record.baseUrl}`);
        if (lane) lane.maxRequests = Math.max(1, Math.ceil(record.requests / 2));
      },
      strand: (keys) => keys.forEach((key) => this.stranded.add(key)),
    };
  }

  /** Finds (or gives up) the batches whose intent was recorded but not their id. */
  recover(): Promise<void> {
    return recoverBatches(this.polling);
  }

  /** Polls every uncollected batch until it ends, and collects its results; returns early when `signal` aborts. */
  waitAll(signal?: AbortSignal): Promise<void> {
    return waitForBatches(this.polling, signal);
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
}
