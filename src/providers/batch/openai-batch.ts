/**
 * OpenAI's Batch API through the `openai` SDK: the input JSONL uploaded as a `batch` file, a batch
 * over `/v1/chat/completions` with a 24 h window (our key in its metadata), the output and error
 * files read when it ends. Limits: 50,000 requests and 200 MB per input file.
 */
import { createReadStream, rmSync } from 'node:fs';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { readLines } from '../../jsonl-lines.js';
import type { CapturedRequest } from './capture.js';
import {
  batchError,
  saveBody,
  type BatchClient,
  type BatchClientOptions,
  type BatchItemResult,
  type BatchStatus,
} from './client.js';

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);
type Loose = Record<string, unknown>;

/** OpenAI batches for one model. */
export class OpenAIBatchClient implements BatchClient {
  readonly provider = 'openai' as const;
  readonly limits = { requests: 50_000, bytes: 190 * 1024 * 1024 };
  private readonly client: OpenAI;

  constructor(private readonly options: BatchClientOptions) {
    // The SDK's own retries stay on for the batch API's few calls (uploads, polls); they are not billed.
    this.client = new OpenAI({
      apiKey: options.apiKey ?? '',
      baseURL: options.baseUrl,
      maxRetries: 4,
    });
  }

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({
      custom_id: customId,
      method: 'POST',
      url: `/v1${request.path}`,
      body: request.body,
    });
  }

  async submit(key: string, inputFile: string): Promise<string> {
    try {
      const file = await this.client.files.create({
        file: await toFile(createReadStream(inputFile), path.basename(inputFile)),
        purpose: 'batch',
      });
      const batch = await this.client.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: { apb_batch_key: key },
      });
      return batch.id;
    } catch (error) {
      throw batchError(`openai:${this.options.model}`, error, 'creating a batch');
    }
  }

  async adopt(
    key: string,
    since: string,
    _count: number,
    known: ReadonlySet<string>,
  ): Promise<string | null> {
    const after = Date.parse(since) / 1000 - 60;
    try {
      for await (const batch of this.client.batches.list({ limit: 100 })) {
        if (batch.created_at < after) return null;
        if (batch.metadata?.apb_batch_key === key && !known.has(batch.id)) return batch.id;
      }
      return null;
    } catch (error) {
      throw batchError(`openai:${this.options.model}`, error, 'listing batches');
    }
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const batch = await this.client.batches.retrieve(id);
      const counts = batch.request_counts;
      return {
        state: ENDED.has(batch.status) ? 'ended' : 'running',
        vendorStatus: batch.status,
        counts: counts
          ? { total: counts.total, succeeded: counts.completed, failed: counts.failed }
          : null,
      };
    } catch (error) {
      throw batchError(`openai:${this.options.model}`, error, `reading batch ${id}`);
    }
  }

  async *results(id: string, scratchDir: string): AsyncIterable<BatchItemResult> {
    let batch: Awaited<ReturnType<OpenAI['batches']['retrieve']>>;
    try {
      batch = await this.client.batches.retrieve(id);
    } catch (error) {
      throw batchError(`openai:${this.options.model}`, error, `reading batch ${id}`);
    }
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const file = path.join(scratchDir, `${id}-${fileId}.jsonl`);
      try {
        await saveBody((await this.client.files.content(fileId)).body, file);
      } catch (error) {
        throw batchError(`openai:${this.options.model}`, error, `downloading ${fileId}`);
      }
      for await (const { text } of readLines(file)) yield itemOf(JSON.parse(text) as Loose);
      rmSync(file, { force: true });
    }
  }
}

/** One output or error line: a 200 reply is a result; anything else is a failure, retryable for 408, 429, 5xx and expiry. */
function itemOf(line: Loose): BatchItemResult {
  const customId = String(line.custom_id);
  const response = (line.response ?? null) as Loose | null;
  const status = typeof response?.status_code === 'number' ? response.status_code : null;
  if (status === 200 && response?.body) return { customId, ok: true, body: response.body };
  const error = (line.error ?? (response?.body as Loose | undefined)?.error ?? {}) as Loose;
  const code = String(error.code ?? '');
  const retryable =
    status === null
      ? code !== 'invalid_request'
      : status === 408 || status === 429 || status >= 500;
  return {
    customId,
    ok: false,
    message: `${status ?? code ?? 'error'}: ${String(error.message ?? 'no result')}`,
    retryable: retryable || code === 'batch_expired',
  };
}
