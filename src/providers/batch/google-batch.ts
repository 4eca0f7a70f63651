/**
 * Gemini's Batch Mode through `@google/genai`: the input JSONL (`{key, request}` lines, each request
 * the body generateContent would get) uploaded through the Files API, a batch job over it named
 * with our key, the responses file downloaded when it ends. Limit: 2 GB per input file (we keep
 * batches to 190 MB). The SDK reports the job's state but not its request counts, nor why a job
 * failed: that is read from the job's raw record.
 */
import { GoogleGenAI } from '@google/genai';
import { rmSync } from 'node:fs';
import type { CapturedRequest } from './capture.js';
import {
  ADOPTION_WINDOW_MS,
  batchError,
  checkedId,
  createOnce,
  failureOf,
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
const ENDED = new Set([
  'JOB_STATE_SUCCEEDED',
  'JOB_STATE_FAILED',
  'JOB_STATE_CANCELLED',
  'JOB_STATE_EXPIRED',
  'JOB_STATE_PARTIALLY_SUCCEEDED',
]);
/** gRPC codes worth another batch: unavailable, deadline, exhausted, internal, aborted. */
const RETRYABLE_CODES = new Set([4, 8, 10, 13, 14, 500, 503, 504, 429]);

/** Gemini batch jobs for one model. */
export class GoogleBatchClient implements BatchClient {
  readonly provider = 'google' as const;
  readonly limits = { requests: 100_000, bytes: 190 * 1024 * 1024 };
  private readonly client: GoogleGenAI;

  constructor(private readonly options: BatchClientOptions) {
    // Our base URL ends with the API version (`…/v1beta`); the SDK takes the two apart. It retries
    // nothing unless given `retryOptions` (none are): a creation is sent once (`createOnce`).
    const url = new URL(options.baseUrl);
    const segments = url.pathname.split('/').filter(Boolean);
    const apiVersion = segments.pop() ?? 'v1beta';
    url.pathname = segments.join('/');
    this.client = new GoogleGenAI({
      apiKey: options.apiKey ?? '',
      httpOptions: { baseUrl: url.href.replace(/\/$/, ''), apiVersion },
    });
  }

  private get id(): string {
    return `google:${this.options.model}`;
  }

  private get headers(): Record<string, string> {
    return { 'x-goog-api-key': this.options.apiKey ?? '' };
  }

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({ key: customId, request: request.body });
  }

  async snapshot(): Promise<string[]> {
    return [];
  }

  async submit(key: string, inputFile: string, count: number): Promise<string> {
    let src: string;
    try {
      const file = await this.client.files.upload({
        file: inputFile,
        config: { mimeType: 'application/jsonl', displayName: key },
      });
      src = checkedId('google', file.name, 'input file name');
    } catch (error) {
      throw batchError(this.id, error, 'uploading a batch input file');
    }
    const since = new Date().toISOString();
    const name = await createOnce(
      async () => {
        const job = await this.client.batches.create({
          model: this.options.model,
          src,
          config: { displayName: key },
        });
        if (!job.name) throw new Error('the batch job has no name');
        return job.name;
      },
      () => this.adopt({ key, since, count, known: new Set() }),
      (error) => batchError(this.id, error, 'creating a batch'),
    );
    return checkedId('google', name, 'batch name');
  }

  /** Ours is the job named with our key (its display name); the vendor's clock may be hours off ours. */
  async adopt(query: AdoptionQuery): Promise<string | null> {
    const after = Date.parse(query.since) - ADOPTION_WINDOW_MS;
    try {
      for await (const job of await this.client.batches.list({ config: { pageSize: 100 } })) {
        if (job.createTime && Date.parse(job.createTime) < after) continue;
        if (job.displayName === query.key && job.name && !query.known.has(job.name))
          return checkedId('google', job.name, 'batch name');
      }
      return null;
    } catch (error) {
      throw batchError(this.id, error, 'listing batches');
    }
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const job = await this.client.batches.get({ name: checkedId('google', id, 'batch name') });
      const state = String(job.state ?? 'JOB_STATE_UNSPECIFIED');
      const status: BatchStatus = {
        state: ENDED.has(state) ? 'ended' : 'running',
        vendorStatus: state,
        counts: null,
      };
      if (state === 'JOB_STATE_FAILED') status.failure = failureOf([await this.reason(id)], state);
      return status;
    } catch (error) {
      throw batchError(this.id, error, `reading batch ${id}`);
    }
  }

  /** Why a job failed: the `error` of its raw operation record (the SDK drops it). */
  private async reason(id: string): Promise<string> {
    const response = await vendorGet(
      `${this.options.baseUrl.replace(/\/$/, '')}/${id}`,
      this.headers,
    );
    const text = await response.text();
    const error = ((JSON.parse(text.length < 1 << 20 ? text : '{}') as Loose).error ?? {}) as Loose;
    return [error.status, error.message].filter(Boolean).map(String).join(': ');
  }

  async cancel(id: string): Promise<void> {
    await this.client.batches
      .cancel({ name: checkedId('google', id, 'batch name') })
      .catch(() => {});
  }

  async *results(id: string, download: ResultsDownload): AsyncIterable<BatchItemResult> {
    const file = download.file('output');
    try {
      const job = await this.client.batches.get({ name: checkedId('google', id, 'batch name') });
      if (!job.dest?.fileName) return;
      const fileName = checkedId('google', job.dest.fileName, 'responses file name');
      const url = `${this.options.baseUrl.replace(/\/$/, '')}/${fileName}:download?alt=media`;
      await saveCapped((await vendorGet(url, this.headers)).body, file, download.maxBytes);
    } catch (error) {
      throw batchError(this.id, error, `downloading the results of ${id}`);
    }
    yield* resultItems(file, download, 'key', itemOf);
    rmSync(file, { force: true });
  }
}

function itemOf(line: Loose): BatchItemResult {
  const customId = typeof line.key === 'string' ? line.key : null;
  if (customId && line.response && !line.error) return { customId, ok: true, body: line.response };
  const error = (line.error ?? {}) as Loose;
  const code = typeof error.code === 'number' ? error.code : null;
  return {
    customId,
    ok: false,
    message: `${String(error.status ?? code ?? 'error')}: ${String(error.message ?? 'no response')}`,
    retryable: code === null || RETRYABLE_CODES.has(code),
  };
}
