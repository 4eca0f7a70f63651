/**
 * OpenAI's Batch API through the `openai` SDK: the input JSONL uploaded as a `batch` file, a batch
 * over `/v1/chat/completions` with a 24 h window (our key in its metadata), the output and error
 * files read when it ends. Limits: 50,000 requests and 200 MB per input file.
 */
import { createReadStream, rmSync } from 'node:fs';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import type { CapturedRequest } from './capture.js';
import {
  ADOPTION_WINDOW_MS,
  batchError,
  checkedId,
  createOnce,
  failureOf,
  type AdoptionQuery,
  type BatchClient,
  type BatchClientOptions,
  type BatchItemResult,
  type BatchStatus,
  type ResultsDownload,
} from './client.js';
import { resultItems, saveCapped } from './download.js';

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);
type Loose = Record<string, unknown>;

/** OpenAI batches for one model. */
export class OpenAIBatchClient implements BatchClient {
  readonly provider = 'openai' as const;
  readonly limits = { requests: 50_000, bytes: 190 * 1024 * 1024 };
  private readonly client: OpenAI;

  constructor(private readonly options: BatchClientOptions) {
    // The SDK's own retries stay on for uploads, polls and downloads (none is billed); a creation is
    // sent with them off (`createOnce`): a retried POST /v1/batches once made a second billed batch.
    this.client = new OpenAI({
      apiKey: options.apiKey ?? '',
      baseURL: options.baseUrl,
      maxRetries: 4,
    });
  }

  private get id(): string {
    return `openai:${this.options.model}`;
  }

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({
      custom_id: customId,
      method: 'POST',
      url: `/v1${request.path}`,
      body: request.body,
    });
  }

  async snapshot(): Promise<string[]> {
    return [];
  }

  async submit(key: string, inputFile: string, count: number): Promise<string> {
    let fileId: string;
    try {
      const file = await this.client.files.create({
        file: await toFile(createReadStream(inputFile), path.basename(inputFile)),
        purpose: 'batch',
      });
      fileId = checkedId('openai', file.id, 'input file id');
    } catch (error) {
      throw batchError(this.id, error, 'uploading a batch input file');
    }
    const since = new Date().toISOString();
    const id = await createOnce(
      async () =>
        (
          await this.client.batches.create(
            {
              input_file_id: fileId,
              endpoint: '/v1/chat/completions',
              completion_window: '24h',
              metadata: { apb_batch_key: key },
            },
            { maxRetries: 0 },
          )
        ).id,
      () => this.adopt({ key, since, count, known: new Set() }),
      (error) => batchError(this.id, error, 'creating a batch'),
    );
    return checkedId('openai', id, 'batch id');
  }

  /** Ours is the batch tagged with our key; the vendor's clock may be hours off ours. */
  async adopt(query: AdoptionQuery): Promise<string | null> {
    const after = (Date.parse(query.since) - ADOPTION_WINDOW_MS) / 1000;
    try {
      for await (const batch of this.client.batches.list({ limit: 100 })) {
        if (batch.created_at < after) return null;
        if (batch.metadata?.apb_batch_key === query.key && !query.known.has(batch.id))
          return checkedId('openai', batch.id, 'batch id');
      }
      return null;
    } catch (error) {
      throw batchError(this.id, error, 'listing batches');
    }
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const batch = await this.client.batches.retrieve(checkedId('openai', id, 'batch id'));
      const counts = batch.request_counts;
      const status: BatchStatus = {
        state: ENDED.has(batch.status) ? 'ended' : 'running',
        vendorStatus: batch.status,
        counts: counts
          ? { total: counts.total, succeeded: counts.completed, failed: counts.failed }
          : null,
      };
      if (batch.status === 'failed')
        status.failure = failureOf(
          (batch.errors?.data ?? []).map(
            (entry) =>
              `${entry.code ?? 'error'}: ${entry.message ?? ''}${entry.line ? ` (line ${entry.line})` : ''}`,
          ),
          batch.status,
        );
      return status;
    } catch (error) {
      throw batchError(this.id, error, `reading batch ${id}`);
    }
  }

  async cancel(id: string): Promise<void> {
    await this.client.batches.cancel(checkedId('openai', id, 'batch id')).catch(() => {});
  }

  async *results(id: string, download: ResultsDownload): AsyncIterable<BatchItemResult> {
    let batch: Awaited<ReturnType<OpenAI['batches']['retrieve']>>;
    try {
      batch = await this.client.batches.retrieve(checkedId('openai', id, 'batch id'));
    } catch (error) {
      throw batchError(this.id, error, `reading batch ${id}`);
    }
    // One cap for both files: what the output took is not left for the errors.
    let room = download.maxBytes;
    const parts = [
      ['output', batch.output_file_id],
      ['errors', batch.error_file_id],
    ] as const;
    for (const [part, rawId] of parts) {
      if (!rawId) continue;
      const fileId = checkedId('openai', rawId, `${part} file id`);
      const file = download.file(part);
      try {
        room -= await saveCapped((await this.client.files.content(fileId)).body, file, room);
      } catch (error) {
        throw batchError(this.id, error, `downloading the ${part} file of ${id}`);
      }
      yield* resultItems(file, download, 'custom_id', itemOf);
      rmSync(file, { force: true });
    }
  }
}

/**
 * One output or error line: a 200 reply is a result; anything else is a failure, retryable for 408,
 * 429, 5xx and expiry.
 */
function itemOf(line: Loose): BatchItemResult {
  const customId = typeof line.custom_id === 'string' ? line.custom_id : null;
  const response = (line.response ?? null) as Loose | null;
  const status = typeof response?.status_code === 'number' ? response.status_code : null;
  if (customId && status === 200 && response?.body)
    return { customId, ok: true, body: response.body };
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
