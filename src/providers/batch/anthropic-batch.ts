/**
 * Anthropic's Message Batches API through `@anthropic-ai/sdk`: the requests sent inline (each
 * `params` is the body the messages endpoint would get), results streamed as JSONL once the batch
 * has ended. Limits: 100,000 requests and 256 MB per batch (we keep batches to 64 MB: the SDK
 * takes the requests as one array, so a batch's input is held in memory while it is sent).
 */
import Anthropic from '@anthropic-ai/sdk';
import { readLines } from '../../jsonl-lines.js';
import type { CapturedRequest } from './capture.js';
import {
  batchError,
  type BatchClient,
  type BatchClientOptions,
  type BatchItemResult,
  type BatchStatus,
} from './client.js';

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
    // The SDK appends /v1/... to its base URL; ours includes /v1.
    this.client = new Anthropic({
      apiKey: options.apiKey ?? '',
      baseURL: options.baseUrl.replace(/\/v1\/?$/, ''),
      maxRetries: 4,
    });
  }

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({ custom_id: customId, params: request.body });
  }

  async submit(_key: string, inputFile: string): Promise<string> {
    const requests: Loose[] = [];
    for await (const { text } of readLines(inputFile)) requests.push(JSON.parse(text) as Loose);
    try {
      const batch = await this.client.messages.batches.create({
        requests: requests as unknown as Anthropic.Messages.BatchCreateParams['requests'],
      });
      return batch.id;
    } catch (error) {
      throw batchError(`anthropic:${this.options.model}`, error, 'creating a batch');
    }
  }

  /**
   * Anthropic batches carry no metadata of ours: a batch with exactly `count` requests, not already
   * known, is taken for ours when it is the only one created at or after `since` — or, when none is,
   * the only one within a few seconds of clock skew before it (another run's batch made just before
   * ours must not make ours ambiguous); otherwise it is given up and its requests go into a new batch.
   * A wrong pick cannot mix up answers, since results are matched by custom id, the request's hash.
   */
  async adopt(
    _key: string,
    since: string,
    count: number,
    known: ReadonlySet<string>,
  ): Promise<string | null> {
    const intent = Date.parse(since);
    const after = intent - 5_000;
    const candidates: { id: string; createdAt: number }[] = [];
    try {
      for await (const batch of this.client.messages.batches.list({ limit: 100 })) {
        const createdAt = Date.parse(batch.created_at);
        if (createdAt < after) break;
        const counts = batch.request_counts;
        const total =
          counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired;
        if (total === count && !known.has(batch.id)) candidates.push({ id: batch.id, createdAt });
      }
    } catch (error) {
      throw batchError(`anthropic:${this.options.model}`, error, 'listing batches');
    }
    const sinceIntent = candidates.filter((candidate) => candidate.createdAt >= intent);
    const pool = sinceIntent.length > 0 ? sinceIntent : candidates;
    return pool.length === 1 ? pool[0]!.id : null;
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const batch = await this.client.messages.batches.retrieve(id);
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
      throw batchError(`anthropic:${this.options.model}`, error, `reading batch ${id}`);
    }
  }

  async *results(id: string): AsyncIterable<BatchItemResult> {
    let stream: AsyncIterable<unknown>;
    try {
      stream = await this.client.messages.batches.results(id);
    } catch (error) {
      throw batchError(`anthropic:${this.options.model}`, error, `reading the results of ${id}`);
    }
    for await (const line of stream) yield itemOf(line as Loose);
  }
}

function itemOf(line: Loose): BatchItemResult {
  const customId = String(line.custom_id);
  const result = (line.result ?? {}) as Loose;
  if (result.type === 'succeeded' && result.message)
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
