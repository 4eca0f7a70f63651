/**
 * The life cycle of one run directory, the same for every writing command: open (take the lock,
 * read the previous manifest) → resume (read what the stores hold) → tally (counts follow every
 * line read and appended) → running (manifest written) → finish(status) → close (stores closed,
 * lock released). A command supplies its manifest's reader and writer and its stores' schemas;
 * the session owns the order of these steps and the stop signals the unit loop obeys.
 */
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import type { Limits } from '../limits.js';
import { createJsonlStore, type JsonlStore } from './jsonl-store.js';
import type { LineSchema } from './line-schema.js';
import { acquireRunLock, type RunLock } from './lock.js';

/** Where a run directory's manifest says its run stands. */
export type RunStatus = 'running' | 'complete' | 'interrupted' | 'stopped-budget' | 'failed';

/** How a command's manifest is read and written (its schema lives with the command). */
export interface ManifestCodec<M> {
  /** Reads the manifest under `limits` (the JSON cap), when the command's reader takes them. */
  read(dir: string, limits?: Limits): M | null;
  write(dir: string, manifest: M): void;
}

/** A manifest kept as pretty JSON in `dir/file`, written atomically; `read` is the command's. */
export function jsonManifest<M>(
  file: string,
  read: (dir: string, limits?: Limits) => M | null,
): ManifestCodec<M> {
  return {
    read,
    write: (dir, manifest) =>
      writeFileAtomic(path.join(dir, file), `${JSON.stringify(manifest, null, 2)}\n`),
  };
}

/** What opening a session needs. */
export interface SessionOptions<M> {
  dir: string;
  /** The command named in the lock (`run`, `judge`, `exec`, …). */
  command: string;
  manifest: ManifestCodec<M>;
  /** A lock the caller already holds (several run directories locked together); else one is taken. */
  heldLock?: RunLock;
  /** Soft stop (first Ctrl-C): no new unit starts; units in flight finish. */
  stop?: AbortSignal | undefined;
  /** Hard stop (second Ctrl-C): calls in flight are cancelled; their units stay unrecorded. */
  signal?: AbortSignal | undefined;
  /** Another reason to stop launching (e.g. the `--max-cost` budget refused a call). */
  exhausted?: (() => boolean) | undefined;
  /** The caps the stores' lines are read back under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

/** How a session's units ended, for `statusOf`. */
export interface UnitsEnd {
  failure: unknown;
  /** Calls still waiting on provider batches: the run is not finished. */
  pending?: boolean;
}

/** An open run directory. */
export interface RunSession<M> {
  readonly dir: string;
  /** The manifest the directory held when the session opened (null for a new directory). */
  readonly previous: M | null;
  /** The caller's hard stop joined with the session's own cancel (a fatal error cancels calls in flight). */
  readonly signal: AbortSignal;
  /** Opens a store `dir/name` (cutting a torn last line); closed with the session. */
  store<T extends object>(name: string, schema?: LineSchema<T>): JsonlStore<T>;
  /** Torn lines cut by the stores opened so far. */
  tornLinesDropped(): number;
  /** Feeds every line `store` holds to `add`, then every line appended to it. */
  follow<T extends object>(store: JsonlStore<T>, add: (line: T) => void): Promise<void>;
  /** Writes the manifest of the running command. */
  running(manifest: M): void;
  /** True once no new unit may start (a stop, an abort, the budget, a cancel). */
  halted(): boolean;
  /** Cancels the calls in flight (after a fatal error). */
  cancel(): void;
  /** Whether the user stopped the run (soft or hard) — an interruption, when nothing failed. */
  interrupted(end: UnitsEnd): boolean;
  /** The final status: failed, interrupted, running (batches pending), stopped-budget or complete. */
  statusOf(end: UnitsEnd): RunStatus;
  /** Writes the final manifest. */
  finish(manifest: M): void;
  /** Closes the stores and releases the lock (idempotent). */
  close(): void;
}

/** Opens a run directory: takes its lock (unless held) and reads its previous manifest. */
export function openSession<M>(options: SessionOptions<M>): RunSession<M> {
  const lock = options.heldLock ?? acquireRunLock(options.dir, options.command);
  let previous: M | null;
  try {
    previous = options.manifest.read(options.dir, options.limits);
  } catch (error) {
    if (!options.heldLock) lock.release();
    throw error;
  }
  const stores: Array<JsonlStore<object>> = [];
  const cancelled = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, cancelled.signal])
    : cancelled.signal;
  const userStopped = () => Boolean(options.stop?.aborted || options.signal?.aborted);
  let closed = false;
  return {
    dir: options.dir,
    previous,
    signal,
    store<T extends object>(name: string, schema?: LineSchema<T>) {
      const store = createJsonlStore<T>(path.join(options.dir, name), schema, options.limits);
      stores.push(store as unknown as JsonlStore<object>);
      return store;
    },
    tornLinesDropped: () => stores.filter((store) => store.tornLineDropped).length,
    async follow(store, add) {
      for await (const line of store.read()) add(line);
      store.onAppend(add);
    },
    running: (manifest) => options.manifest.write(options.dir, manifest),
    halted: () => userStopped() || signal.aborted || Boolean(options.exhausted?.()),
    cancel: () => cancelled.abort(),
    interrupted: (end) => userStopped() && !end.failure,
    statusOf(end) {
      if (end.failure) return 'failed';
      if (userStopped()) return 'interrupted';
      if (end.pending) return 'running';
      return options.exhausted?.() ? 'stopped-budget' : 'complete';
    },
    finish: (manifest) => options.manifest.write(options.dir, manifest),
    close() {
      if (closed) return;
      closed = true;
      for (const store of stores) store.close();
      if (!options.heldLock) lock.release();
    },
  };
}

/** Runs `work` in an open session and closes it however `work` ends. */
export async function withSession<M, R>(
  options: SessionOptions<M>,
  work: (session: RunSession<M>) => Promise<R>,
): Promise<R> {
  const session = openSession(options);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

/** The keys of the lines a store already holds (what a resume skips). */
export async function resumeKeys<T extends object>(
  store: JsonlStore<T>,
  keyOf: (line: T) => string | null | undefined,
): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const line of store.read()) {
    const key = keyOf(line);
    if (key) keys.add(key);
  }
  return keys;
}
