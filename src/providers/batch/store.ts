/**
 * What a run directory remembers of its batches, so a re-run resumes them instead of paying twice:
 * `batches.jsonl` (an append-only log: intent → created → ended → collected, each line written
 * before the next step), `batches/<key>.keys` (the request keys each batch holds) and
 * `batch-results.jsonl` (every result item, by request key). In memory: ids, keys and offsets only.
 */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { appendLineSync, openAppendNoFollow } from '../../atomic-write.js';
import { ApbError } from '../../errors.js';
import { parseUntrustedJson } from '../../json-depth.js';
import path from 'node:path';
import { readLines } from '../../jsonl-lines.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import type { BatchCounts } from './client.js';

/** One line of `batches.jsonl`. */
export interface BatchEvent {
  event:
    'intent' | 'created' | 'status' | 'collected' | 'abandoned' | 'submit-failed' | 'timed-out';
  /** Ours: names the batch before the vendor has an id for it. */
  batch_key: string;
  at: string;
  id?: string;
  provider?: string;
  model?: string;
  base_url?: string;
  requests?: number;
  status?: string;
  counts?: BatchCounts | null;
  error?: string;
  /** On an intent: the vendor's newest batch ids just before the creation (vendors without a tag of ours). */
  before?: string[];
}

/** A batch as the log tells it. */
export interface BatchRecord {
  key: string;
  provider: string;
  model: string;
  baseUrl: string;
  requests: number;
  intentAt: string;
  /** Batch ids the vendor listed just before the creation (see `BatchEvent.before`). */
  before?: string[];
  id: string | null;
  /** When its id was recorded (by our clock): `--batch-timeout` counts from here. */
  createdAt: string | null;
  status: string | null;
  collected: boolean;
  /**
   * Given up (submission failed, or its creation was cut short and it could not be found): its
   * requests go into a new batch.
   */
  dropped: boolean;
  /** Ended by `--batch-timeout`: its requests are left unanswered, for a re-run. */
  timedOut: boolean;
}

/** The shape of apb's own batch keys (they name files in the run directory, so a log line with another is refused). */
export const BATCH_KEY = /^apb-[a-z0-9-]{1,80}$/;

/** One result item as stored. */
export interface StoredResult {
  key: string;
  batch: string;
  ok: boolean;
  body?: unknown;
  message?: string;
  retryable?: boolean;
}

/** Cuts a file back to its last newline (what a crash in the middle of an append leaves). */
function cutTornTail(file: string): void {
  const size = statSync(file).size;
  if (size === 0) return;
  const fd = openSync(file, 'r+');
  try {
    const tail = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    if (tail[tail.length - 1] === 0x0a) return;
    const newline = tail.lastIndexOf(0x0a);
    ftruncateSync(
      fd,
      newline < 0 ? Math.max(0, size - tail.length) : size - tail.length + newline + 1,
    );
  } finally {
    closeSync(fd);
  }
}

/** Appends in one write, never through a symlink planted at the name. */
function appendTo(file: string, text: string): void {
  const fd = openAppendNoFollow(file);
  try {
    appendLineSync(fd, file, text);
  } finally {
    closeSync(fd);
  }
}

/** One line of the log, refused (naming file and line) when it is not an event apb wrote. */
function eventOf(file: string, line: number, text: string): BatchEvent {
  let event: BatchEvent;
  try {
    event = parseUntrustedJson(text, 8) as BatchEvent;
  } catch (error) {
    throw new ApbError('batch', `${file}:${line}: not a batch event (${(error as Error).message})`);
  }
  if (typeof event?.batch_key !== 'string' || !BATCH_KEY.test(event.batch_key))
    throw new ApbError('batch', `${file}:${line}: batch_key: not a batch key apb makes`);
  return event;
}

/** The run directory's batch files. */
export class BatchStore {
  readonly batches = new Map<string, BatchRecord>();
  /** Request key → the batch (ours) it was last submitted in. */
  private readonly submitted = new Map<string, string>();
  /** Request key → where its latest result line is (a success wins over any failure), and how many failures it had. */
  private readonly results = new Map<
    string,
    { offset: number; length: number; ok: boolean; failures: number }
  >();
  readonly logFile: string;
  readonly resultsFile: string;
  readonly scratchDir: string;

  private constructor(
    readonly dir: string,
    /** The cap on one line of the files read back (`Limits.lineBytes`). */
    private readonly lineBytes: number,
  ) {
    this.logFile = path.join(dir, 'batches.jsonl');
    this.resultsFile = path.join(dir, 'batch-results.jsonl');
    this.scratchDir = path.join(dir, 'batches');
    mkdirSync(this.scratchDir, { recursive: true });
  }

  /** Opens (or starts) the batch files of a run directory, their lines read under `lineBytes`. */
  static async open(
    dir: string,
    lineBytes: number = DEFAULT_LIMITS.lineBytes,
  ): Promise<BatchStore> {
    const store = new BatchStore(dir, lineBytes);
    if (existsSync(store.logFile)) cutTornTail(store.logFile);
    if (existsSync(store.logFile))
      for await (const { text, line } of readLines(store.logFile, undefined, { lineBytes }))
        store.apply(eventOf(store.logFile, line, text));
    for (const record of store.batches.values())
      if (!record.dropped) await store.loadKeys(record.key);
    if (existsSync(store.resultsFile)) await store.indexResults();
    return store;
  }

  private apply(event: BatchEvent): void {
    if (event.event === 'intent') {
      this.batches.set(event.batch_key, {
        key: event.batch_key,
        provider: event.provider ?? '',
        model: event.model ?? '',
        baseUrl: event.base_url ?? '',
        requests: event.requests ?? 0,
        intentAt: event.at,
        ...(event.before ? { before: event.before } : {}),
        id: null,
        createdAt: null,
        status: null,
        collected: false,
        dropped: false,
        timedOut: false,
      });
      return;
    }
    const record = this.batches.get(event.batch_key);
    if (!record) return;
    if (event.event === 'created') [record.id, record.createdAt] = [event.id ?? null, event.at];
    if (event.event === 'status') record.status = event.status ?? record.status;
    if (event.event === 'collected') record.collected = true;
    if (event.event === 'abandoned' || event.event === 'submit-failed') record.dropped = true;
    if (event.event === 'timed-out') [record.dropped, record.timedOut] = [true, true];
  }

  /** Appends an event (synchronously: once this returns, a crash cannot lose it) and applies it. */
  record(event: Omit<BatchEvent, 'at'>): void {
    const line: BatchEvent = { ...event, at: new Date().toISOString() };
    appendTo(this.logFile, `${JSON.stringify(line)}\n`);
    this.apply(line);
  }

  keysFile(batchKey: string): string {
    return path.join(this.scratchDir, `${batchKey}.keys`);
  }

  private async loadKeys(batchKey: string): Promise<void> {
    const file = this.keysFile(batchKey);
    if (!existsSync(file)) return;
    const lines = readLines(file, undefined, { lineBytes: this.lineBytes });
    for await (const { text } of lines) this.submitted.set(text, batchKey);
  }

  /** Notes that `keys` are in the batch `batchKey` (its keys file is already written). */
  markSubmitted(batchKey: string, keys: readonly string[]): void {
    for (const key of keys) this.submitted.set(key, batchKey);
  }

  /** The request keys last submitted in the batch `batchKey`. */
  keysOf(batchKey: string): string[] {
    return [...this.submitted].flatMap(([key, batch]) => (batch === batchKey ? [key] : []));
  }

  /** The batch (ours) a request is waiting in: submitted, not given up, not yet collected. */
  waitingIn(requestKey: string): BatchRecord | null {
    const batchKey = this.submitted.get(requestKey);
    const record = batchKey ? this.batches.get(batchKey) : undefined;
    return record && !record.dropped && !record.collected ? record : null;
  }

  /**
   * Indexes the results file; a torn last line (a crash mid-append) is cut off first, so the next
   * append starts clean.
   */
  private async indexResults(): Promise<void> {
    cutTornTail(this.resultsFile);
    let offset = 0;
    for await (const { text } of readLines(this.resultsFile, undefined, {
      lineBytes: this.lineBytes,
    })) {
      // We write every line ourselves: JSON with no surrounding blanks, one `\n` after it.
      const length = Buffer.byteLength(text);
      const { key, ok } = JSON.parse(text) as StoredResult;
      this.indexResult(key, ok, offset, length);
      offset += length + 1;
    }
  }

  private indexResult(key: string, ok: boolean, offset: number, length: number): void {
    const earlier = this.results.get(key);
    if (earlier?.ok && !ok) return;
    this.results.set(key, {
      offset,
      length,
      ok,
      failures: (earlier?.failures ?? 0) + (ok ? 0 : 1),
    });
  }

  /** Appends result items and indexes them. */
  appendResults(items: readonly StoredResult[]): void {
    if (items.length === 0) return;
    let offset = existsSync(this.resultsFile) ? statSync(this.resultsFile).size : 0;
    let text = '';
    for (const item of items) {
      const line = JSON.stringify(item);
      this.indexResult(item.key, item.ok, offset, Buffer.byteLength(line));
      offset += Buffer.byteLength(line) + 1;
      text += `${line}\n`;
    }
    appendTo(this.resultsFile, text);
  }

  /** The latest result of a request (a success if it ever had one), with its count of failed attempts. */
  resultOf(requestKey: string): (StoredResult & { failures: number }) | null {
    const entry = this.results.get(requestKey);
    if (!entry) return null;
    const buffer = Buffer.alloc(entry.length);
    const fd = openSync(this.resultsFile, 'r');
    try {
      readSync(fd, buffer, 0, entry.length, entry.offset);
    } finally {
      closeSync(fd);
    }
    return { ...(JSON.parse(buffer.toString('utf8')) as StoredResult), failures: entry.failures };
  }
}
