/**
 * The batch protocol of one vendor, as the batcher sees it: write an input line, submit a file of
 * them, find a batch whose creation was cut short, read its status and stream its results. One
 * implementation per vendor, each over the vendor's official SDK (loaded only when `--batch` is used).
 */
import { ApbError, ProviderError } from '../../errors.js';
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

/**
 * Why a whole batch failed, as the vendor said it (`Batch.errors`, the job's `error`): `size` when
 * the batch was too big for the account (enqueued tokens, request count, file size), so halves of
 * it can succeed; `other` when resubmitting the same requests cannot help.
 */
export interface BatchFailure {
  kind: 'size' | 'other';
  reason: string;
}

/** Where a batch stands: `running` until the vendor says it ended (completed, failed, expired, cancelled). */
export interface BatchStatus {
  state: 'running' | 'ended';
  /** The vendor's own word for it (`in_progress`, `ended`, `JOB_STATE_SUCCEEDED`, …). */
  vendorStatus: string;
  counts: BatchCounts | null;
  /** Set when the batch failed as a whole (it then has no results to read). */
  failure?: BatchFailure;
}

/**
 * One item of a batch's results: the endpoint's reply body, or why there is none. `customId` is
 * null for a line too broken to name its request.
 */
export type BatchItemResult =
  | { customId: string; ok: true; body: unknown }
  | { customId: string | null; ok: false; message: string; retryable: boolean };

/** Where a batch's results may be downloaded to (files apb names, in the run directory) and how big they may get. */
export interface ResultsDownload {
  /** The scratch file for one of the batch's result files (`output`, `errors`). */
  file(part: 'output' | 'errors'): string;
  /** Most bytes the downloads may take in all: the batch's request count × the reply cap. */
  maxBytes: number;
  /** Most bytes one results line may take: the reply cap and room for the vendor's envelope. */
  maxLineBytes: number;
  /** Most levels a results line may nest (the JSON cap); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number;
}

/** What `adopt` knows of a batch whose creation was cut short. */
export interface AdoptionQuery {
  /** Ours: the tag the batch carries where the vendor stores one (OpenAI metadata, Gemini display name). */
  key: string;
  /** When the intent was recorded, by our clock. */
  since: string;
  /** Requests the batch holds. */
  count: number;
  /** Batch ids already recorded (never adopted twice). */
  known: ReadonlySet<string>;
  /**
   * Batch ids the vendor listed just before the creation (where the vendor has no tag: the new one
   * is not among them).
   */
  before?: readonly string[];
}

/** One vendor's batch API for one model at one base URL. */
export interface BatchClient {
  readonly provider: BatchProviderId;
  /** Most requests and bytes of input one batch may hold (the vendor's limits, with a margin). */
  readonly limits: { requests: number; bytes: number };
  /** The input-file line for one captured request. */
  inputLine(customId: string, request: CapturedRequest): string;
  /**
   * Submits a file of input lines; resolves with the vendor's batch id. `key` is ours, stored with
   * the batch where the vendor allows. The creation itself is sent once (the SDK's retries are off
   * for it): after a failure that may have created the batch, `adopt` is asked before any retry.
   */
  submit(
    key: string,
    inputFile: string,
    count: number,
    before?: readonly string[],
  ): Promise<string>;
  /**
   * Ids of the newest batches, listed before a creation (for vendors whose batches carry no tag of
   * ours); [] where a tag is used.
   */
  snapshot(): Promise<string[]>;
  /**
   * The id of a batch created for `query.key` whose id was never recorded (the process died in
   * between, or the reply was lost), if the vendor can tell.
   */
  adopt(query: AdoptionQuery): Promise<string | null>;
  status(id: string): Promise<BatchStatus>;
  /** Asks the vendor to cancel a batch (`--batch-timeout`); best effort. */
  cancel(id: string): Promise<void>;
  /** Streams the batch's results, downloaded to the files `download` names, within its caps. */
  results(id: string, download: ResultsDownload): AsyncIterable<BatchItemResult>;
}

/** What a client is made with. */
export interface BatchClientOptions {
  model: string;
  apiKey: string | undefined;
  /** The API root as `--base-url` takes it (`…/v1`, `…/v1beta` for Google). */
  baseUrl: string;
  /** The line cap for the request files read back (`Limits.lineBytes`); default `DEFAULT_LIMITS`'. */
  lineBytes?: number;
}

/**
 * A vendor SDK's error as a `ProviderError`, classified by HTTP status (401/403 stop the run), its
 * message redacted. apb's own errors (a full disk, a refused id) pass through; a download past its
 * cap is final (asking again would download the same bytes).
 */
export function batchError(provider: string, error: unknown, doing: string): ApbError {
  if (error instanceof ApbError) return error;
  if (error instanceof Error && error.name === 'DownloadCapError')
    return new ProviderError({
      provider,
      kind: 'client',
      retryable: false,
      message: `${provider}: batch API, ${doing}: ${error.message}; refused`,
    });
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

/**
 * The character sets the vendors document for their ids (OpenAI `batch_…`/`file-…`, Anthropic
 * `msgbatch_…`, Gemini `batches/…`/`files/…`). An id is only ever sent back to the vendor, never
 * used as a path; checking it keeps a hostile endpoint from steering even the URLs apb requests
 * (`files/../../x/content`).
 */
const ID_SHAPES: Record<BatchProviderId, RegExp> = {
  openai: /^[A-Za-z0-9_-]{1,128}$/,
  anthropic: /^[A-Za-z0-9_-]{1,128}$/,
  google: /^(?:batches|files)\/[A-Za-z0-9_-]{1,128}$/,
};

/** `id` when it has the vendor's documented shape; otherwise a non-retryable error naming what it was. */
export function checkedId(provider: BatchProviderId, id: unknown, what: string): string {
  if (typeof id === 'string' && ID_SHAPES[provider].test(id)) return id;
  const shown = JSON.stringify(String(id)).slice(0, 80);
  throw new ProviderError({
    provider,
    kind: 'client',
    retryable: false,
    message: `${provider}: batch API: the ${what} ${shown} is not an id of the shape ${provider} documents (refused)`,
  });
}

/** Words of a whole-batch failure that mean the batch was too big for the account, so smaller batches can succeed. */
const SIZE_FAILURE =
  /token_limit|limit_exceeded|too[ _]many|too[ _]large|exceed|maximum|RESOURCE_EXHAUSTED|quota/i;

/** A whole-batch failure from the vendor's own words (codes and messages). */
export function failureOf(reasons: readonly string[], vendorStatus: string): BatchFailure {
  const reason = reasons.filter(Boolean).join('; ') || `the batch ${vendorStatus}, no reason given`;
  return { kind: SIZE_FAILURE.test(reason) ? 'size' : 'other', reason: redact(reason) };
}

/** Creations tried before giving up (each after looking for a batch the previous one made). */
const CREATE_TRIES = 3;

/**
 * One batch per intent: the creation is sent with the SDK's retries off; when it fails in a way that
 * may still have made the batch (a dropped connection, a 5xx, a timeout), the vendor's batches are
 * listed and ours adopted before anything is sent again.
 */
export async function createOnce(
  create: () => Promise<string>,
  adopt: () => Promise<string | null>,
  classify: (error: unknown) => ApbError,
  waitMs = 1_000,
): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await create();
    } catch (error) {
      const failure = classify(error);
      if (!(failure instanceof ProviderError) || !failure.retryable) throw failure;
      const found = await adopt();
      if (found) return found;
      if (attempt >= CREATE_TRIES) throw failure;
      await new Promise((resolve) => setTimeout(resolve, waitMs * attempt));
    }
  }
}

/** How far a vendor's clock may be from ours and a cut-short batch still be found (hours either way). */
export const ADOPTION_WINDOW_MS = 6 * 60 * 60 * 1000;

/** A GET to the vendor that apb streams itself (results, a job's raw record), with its auth headers. */
export async function vendorGet(url: string, headers: Record<string, string>): Promise<Response> {
  const response = await fetch(url, { headers });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw Object.assign(
      new Error(`HTTP ${response.status} from ${new URL(url).pathname}: ${text}`),
      {
        status: response.status,
      },
    );
  }
  return response;
}
