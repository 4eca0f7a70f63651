/**
 * The batch protocol of one vendor, as the batcher sees it: write an input line, submit a file of
 * them, find a batch whose creation was cut short, read its status and stream its results. One
 * implementation per vendor, each over the vendor's official SDK (loaded only when `--batch` is used).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProviderError } from '../../errors.js';
import { redact } from '../../redact.js';
import type { CapturedRequest } from './capture.js';

/** Vendors with a batch API. */
export const BATCH_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
/** A vendor with a batch API. */
export type BatchProviderId = (typeof BATCH_PROVIDERS)[number];

/** Request counts of a batch as the vendor reports them; null where its SDK does not say. */
export interface BatchCounts {
  total: number;
  succeeded: number;
  failed: number;
}

/** Where a batch stands: `running` until the vendor says it ended (completed, failed, expired, cancelled). */
export interface BatchStatus {
  state: 'running' | 'ended';
  /** The vendor's own word for it (`in_progress`, `ended`, `JOB_STATE_SUCCEEDED`, …). */
  vendorStatus: string;
  counts: BatchCounts | null;
}

/** One item of a batch's results: the endpoint's reply body, or why there is none. */
export type BatchItemResult =
  | { customId: string; ok: true; body: unknown }
  | { customId: string; ok: false; message: string; retryable: boolean };

/** One vendor's batch API for one model at one base URL. */
export interface BatchClient {
  readonly provider: BatchProviderId;
  /** Most requests and bytes of input one batch may hold (the vendor's limits, with a margin). */
  readonly limits: { requests: number; bytes: number };
  /** The input-file line for one captured request. */
  inputLine(customId: string, request: CapturedRequest): string;
  /** Submits a file of input lines; resolves with the vendor's batch id. `key` is ours, stored with the batch where the vendor allows. */
  submit(key: string, inputFile: string, count: number): Promise<string>;
  /** The id of a batch created for `key` whose id was never recorded (the process died in between), if the vendor can tell. */
  adopt(
    key: string,
    since: string,
    count: number,
    known: ReadonlySet<string>,
  ): Promise<string | null>;
  status(id: string): Promise<BatchStatus>;
  /** Streams the batch's results; `scratchDir` may hold a downloaded file. */
  results(id: string, scratchDir: string): AsyncIterable<BatchItemResult>;
}

/** What a client is made with. */
export interface BatchClientOptions {
  model: string;
  apiKey: string | undefined;
  /** The API root as `--base-url` takes it (`…/v1`, `…/v1beta` for Google). */
  baseUrl: string;
}

/** A vendor SDK's error as a `ProviderError`, classified by HTTP status (401/403 stop the run), its message redacted. */
export function batchError(provider: string, error: unknown, doing: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const status =
    typeof (error as { status?: unknown })?.status === 'number'
      ? (error as { status: number }).status
      : undefined;
  const message = redact(
    `${provider}: batch API, ${doing}: ${(error as Error)?.message ?? String(error)}`,
  );
  if (status === 401 || status === 403)
    return new ProviderError({
      provider,
      kind: 'auth',
      retryable: false,
      status,
      message: `${message} (check the API key)`,
      cause: error,
    });
  if (status === 429)
    return new ProviderError({
      provider,
      kind: 'rate-limit',
      retryable: true,
      status,
      message,
      cause: error,
    });
  if (status !== undefined && status >= 500)
    return new ProviderError({
      provider,
      kind: 'server',
      retryable: true,
      status,
      message,
      cause: error,
    });
  if (status !== undefined)
    return new ProviderError({
      provider,
      kind: 'client',
      retryable: false,
      status,
      message,
      cause: error,
    });
  return new ProviderError({ provider, kind: 'network', retryable: true, message, cause: error });
}

/** Writes a downloaded body to `file` as it arrives (results are streamed to disk, then read with the one JSONL reader). */
export async function saveBody(
  body: ReadableStream<Uint8Array> | null,
  file: string,
): Promise<void> {
  if (!body) throw new Error('the results download has no body');
  await pipeline(
    Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
    createWriteStream(file),
  );
}
