/**
 * Anthropic's Message Batches API through `@anthropic-ai/sdk`: the requests sent inline (each
 * `params` is the body the messages endpoint would get), results streamed as JSONL once the batch
 * has ended. Limits: 100,000 requests and 256 MB per batch (we keep batches to 64 MB: the SDK
 * takes the requests as one array, so a batch's input is held in memory while it is sent).
 */
import Anthropic from '@anthropic-ai/sdk';
import { rmSync } from 'node:fs';
import { readLines } from '../../jsonl-lines.js';
import type { CapturedRequest } from './capture.js';
import {
  ADOPTION_WINDOW_MS,
  batchError,
  checkedId,
  createOnce,
  vendorGet,
  type AdoptionQuery,
  type BatchClient,
  type BatchClientOptions,
  type BatchItemResult,
  type BatchStatus,
  type ResultsDownload,
} from './client.js';
import { resultItems, saveCapped } from './download.js';

type Loose = Record<string, unknown>;
/** Error types worth another batch: the API's own failures and overload, not a bad request. */
const RETRYABLE_ERRORS = new Set([
  'api_error',
  'overloaded_error',
  'rate_limit_error',
  'timeout_error',
]);

/** Anthropic message batches for one model. */
export class AnthropicBatchClient implements BatchClient {
  readonly provider = 'anthropic' as const;
  readonly limits = { requests: 100_000, bytes: 64 * 1024 * 1024 };
  private readonly client: Anthropic;

  constructor(private readonly options: BatchClientOptions) {
    // The SDK appends /v1/... to its base URL; ours includes /v1. Its retries are off for creations (`createOnce`).
    this.client = new Anthropic({
      apiKey: options.apiKey ?? '',
      baseURL: options.baseUrl.replace(/\/v1\/?$/, ''),
      maxRetries: 4,
    });
  }

  private get id(): string {
    return `anthropic:${this.options.model}`;
  }

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({ custom_id: customId, params: request.body });
  }

  /**
   * The newest batches' ids: ours, made after this, is the one not among them (Anthropic batches
   * carry no tag of ours).
   */
  async snapshot(): Promise<string[]> {
    try {
      const page = await this.client.messages.batches.list({ limit: 100 });
      return page.data.map((batch) => batch.id);
    } catch (error) {
      throw batchError(this.id, error, 'listing batches');
    }
  }

  async submit(
    key: string,
    inputFile: string,
    count: number,
    before?: readonly string[],
  ): Promise<string> {
    const requests: Loose[] = [];
    const lines = readLines(inputFile, undefined, { lineBytes: this.options.lineBytes });
    for await (const { text } of lines) requests.push(JSON.parse(text) as Loose);
    const since = new Date().toISOString();
    const id = await createOnce(
      async () =>
        (
          await this.client.messages.batches.create(
            {
              requests: requests as unknown as Anthropic.Messages.BatchCreateParams['requests'],
            },
            { maxRetries: 0 },
          )
        ).id,
      () => this.adopt({ key, since, count, known: new Set(), ...(before ? { before } : {}) }),
      (error) => batchError(this.id, error, 'creating a batch'),
    );
    return checkedId('anthropic', id, 'batch id');
  }

  /**
   * Anthropic batches carry no metadata of ours. With the ids listed just before the creation
   * (`before`), ours is the one batch of exactly `count` requests not among them — no clock needed.
   * Without them (a log from an older apb), the one such batch created at or after `since` (our
   * clock; a vendor clock off by hours widens the look-back to the adoption window). Otherwise it is
   * given up and its requests go into a new batch; a wrong pick cannot mix up answers, since results
   * are matched by custom id, the request's hash.
   */
  async adopt(query: AdoptionQuery): Promise<string | null> {
    const intent = Date.parse(query.since);
    const after = intent - ADOPTION_WINDOW_MS;
    const before = query.before ? new Set(query.before) : null;
    const candidates: { id: string; createdAt: number }[] = [];
    try {
      for await (const batch of this.client.messages.batches.list({ limit: 100 })) {
        const createdAt = Date.parse(batch.created_at);
        if (createdAt < after) break;
        if (before?.has(batch.id)) break;
        const counts = batch.request_counts;
        const total =
          counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired;
        if (total === query.count && !query.known.has(batch.id))
          candidates.push({ id: batch.id, createdAt });
      }
    } catch (error) {
      throw batchError(this.id, error, 'listing batches');
    }
    const sinceIntent = before
      ? candidates
      : candidates.filter((candidate) => candidate.createdAt >= intent - 5_000);
    const pool = sinceIntent.length > 0 ? sinceIntent : candidates;
    return pool.length === 1 ? checkedId('anthropic', pool[0]!.id, 'batch id') : null;
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const batch = await this.client.messages.batches.retrieve(
        checkedId('anthropic', id, 'batch id'),
      );
      const counts = batch.request_counts;
      const total =
        counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired;
      return {
        state: batch.processing_status === 'ended' ? 'ended' : 'running',
        vendorStatus: batch.processing_status,
        counts: {
          total,
          succeeded: counts.succeeded,
          failed: counts.errored + counts.canceled + counts.expired,
        },
      };
    } catch (error) {
      throw batchError(this.id, error, `reading batch ${id}`);
    }
  }

  async cancel(id: string): Promise<void> {
    await this.client.messages.batches
      .cancel(checkedId('anthropic', id, 'batch id'))
      .catch(() => {});
  }

  /**
   * The results, from the URL apb builds of the checked id (not the batch's `results_url`),
   * streamed to disk within the cap.
   */
  async *results(id: string, download: ResultsDownload): AsyncIterable<BatchItemResult> {
    const file = download.file('output');
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/messages/batches/${checkedId('anthropic', id, 'batch id')}/results`;
    try {
      const response = await vendorGet(url, {
        'x-api-key': this.options.apiKey ?? '',
        'anthropic-version': '2023-06-01',
      });
      await saveCapped(response.body, file, download.maxBytes);
    } catch (error) {
      throw batchError(this.id, error, `reading the results of ${id}`);
    }
    yield* resultItems(file, download, 'custom_id', itemOf);
    rmSync(file, { force: true });
  }
}

function itemOf(line: Loose): BatchItemResult {
  const customId = typeof line.custom_id === 'string' ? line.custom_id : null;
  const result = (line.result ?? {}) as Loose;
  if (customId && result.type === 'succeeded' && result.message)
    return { customId, ok: true, body: result.message };
  if (result.type === 'errored') {
    const error = ((result.error as Loose | undefined)?.error ?? result.error ?? {}) as Loose;
    return {
      customId,
      ok: false,
      message: `${String(error.type ?? 'error')}: ${String(error.message ?? 'no message')}`,
      retryable: RETRYABLE_ERRORS.has(String(error.type)),
    };
  }
  return {
    customId,
    ok: false,
    message: `${String(result.type ?? 'unknown')}: no result`,
    retryable: true,
  };
}
