/**
 * Gemini's Batch Mode through `@google/genai`: the input JSONL (`{key, request}` lines, each request
 * the body generateContent would get) uploaded through the Files API, a batch job over it named
 * with our key, the responses file downloaded when it ends. Limit: 2 GB per input file (we keep
 * batches to 190 MB). The SDK reports the job's state but not its request counts.
 */
import { GoogleGenAI } from '@google/genai';
import { rmSync } from 'node:fs';
import path from 'node:path';
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
    // Our base URL ends with the API version (`…/v1beta`); the SDK takes the two apart.
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

  inputLine(customId: string, request: CapturedRequest): string {
    return JSON.stringify({ key: customId, request: request.body });
  }

  async submit(key: string, inputFile: string): Promise<string> {
    try {
      const file = await this.client.files.upload({
        file: inputFile,
        config: { mimeType: 'application/jsonl', displayName: key },
      });
      const job = await this.client.batches.create({
        model: this.options.model,
        src: file.name!,
        config: { displayName: key },
      });
      if (!job.name) throw new Error('the batch job has no name');
      return job.name;
    } catch (error) {
      throw batchError(this.id, error, 'creating a batch');
    }
  }

  async adopt(
    key: string,
    since: string,
    _count: number,
    known: ReadonlySet<string>,
  ): Promise<string | null> {
    const after = Date.parse(since) - 60_000;
    try {
      for await (const job of await this.client.batches.list({ config: { pageSize: 100 } })) {
        if (job.createTime && Date.parse(job.createTime) < after) continue;
        if (job.displayName === key && job.name && !known.has(job.name)) return job.name;
      }
      return null;
    } catch (error) {
      throw batchError(this.id, error, 'listing batches');
    }
  }

  async status(id: string): Promise<BatchStatus> {
    try {
      const job = await this.client.batches.get({ name: id });
      const state = String(job.state ?? 'JOB_STATE_UNSPECIFIED');
      return { state: ENDED.has(state) ? 'ended' : 'running', vendorStatus: state, counts: null };
    } catch (error) {
      throw batchError(this.id, error, `reading batch ${id}`);
    }
  }

  async *results(id: string, scratchDir: string): AsyncIterable<BatchItemResult> {
    let fileName: string | undefined;
    const file = path.join(scratchDir, `${id.replace(/[^A-Za-z0-9_-]+/g, '-')}-responses.jsonl`);
    try {
      fileName = (await this.client.batches.get({ name: id })).dest?.fileName;
      if (!fileName) return;
      await this.client.files.download({ file: fileName, downloadPath: file });
    } catch (error) {
      throw batchError(this.id, error, `downloading the results of ${id}`);
    }
    for await (const { text } of readLines(file)) yield itemOf(JSON.parse(text) as Loose);
    rmSync(file, { force: true });
  }
}

function itemOf(line: Loose): BatchItemResult {
  const customId = String(line.key);
  if (line.response && !line.error) return { customId, ok: true, body: line.response };
  const error = (line.error ?? {}) as Loose;
  const code = typeof error.code === 'number' ? error.code : null;
  return {
    customId,
    ok: false,
    message: `${String(error.status ?? code ?? 'error')}: ${String(error.message ?? 'no response')}`,
    retryable: code === null || RETRYABLE_CODES.has(code),
  };
}
