/**
 * The one response cache: SQLite (WAL, one table). The key hashes only what changes the output — never API keys,
 * concurrency, retries or timeouts. A hit is marked `cached: true` with 0 attempts and 0 latency.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson } from '../canonical-json.js';
import { textNestingDepth } from '../json-depth.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type {
  ChatMessage,
  FinishReason,
  ModelToolCall,
  Provider,
  ProviderRequest,
  ProviderResult,
  Usage,
} from './provider.js';

/** Bump when the key's inputs or the stored reply change shape: old entries are then never hit. */
export const CACHE_SCHEMA_VERSION = 1;

/** Who answers: part of the key, so the same prompt to another model or endpoint is another entry. */
export interface CacheScope {
  /** Provider id, e.g. `openai`. */
  provider: string;
  model: string;
  /** The base URL the request goes to (a local vLLM and OpenRouter serve different weights under one name). */
  baseUrl: string | null;
  /** Planners and agents as code: the request's subject (case id and split, or task and turn) enters the key. */
  bySubject?: boolean;
}

interface StoredReply {
  text: string;
  toolCalls?: ModelToolCall[];
  usage: Usage | null;
  finishReason: FinishReason;
  warnings?: string[];
}

/** One message as it enters the key: images by their sha256; tool calls and results as sent. */
function keyOfMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool') return { role: 'tool', results: message.results };
  const parts = message.parts.map((part) =>
    part.type === 'text' ? { text: part.text } : { imageSha256: part.file.sha256 },
  );
  return 'toolCalls' in message
    ? { role: message.role, parts, toolCalls: message.toolCalls }
    : { role: message.role, parts };
}

/**
 * The inputs of a cache key, images replaced by their sha256. Tools and tool choice enter only when a request
 * has them, so the keys of plain text requests are unchanged (no schema bump, no cold cache).
 */
export function cacheKeyInputs(
  scope: CacheScope,
  request: ProviderRequest,
): Record<string, unknown> {
  return {
    schemaVersion: CACHE_SCHEMA_VERSION,
    provider: scope.provider,
    model: scope.model,
    baseUrl: scope.baseUrl,
    messages: request.messages.map(keyOfMessage),
    json: request.json,
    sampling: request.sampling,
    promptVersion: request.promptVersion,
    repeat: request.repeat,
    ...(request.tools ? { tools: request.tools, toolChoice: request.toolChoice ?? 'auto' } : {}),
    ...(scope.bySubject && request.subject ? { subject: request.subject } : {}),
  };
}

/** The key's inputs as canonical JSON, for debug logs (Inspect's `_cache_key_debug_string`). */
export function cacheKeyDebugString(scope: CacheScope, request: ProviderRequest): string {
  return canonicalJson(cacheKeyInputs(scope, request));
}

/** sha256 (hex) of the canonical key inputs. */
export function cacheKey(scope: CacheScope, request: ProviderRequest): string {
  return createHash('sha256').update(cacheKeyDebugString(scope, request)).digest('hex');
}

/** Why the cache stopped being used, told once (the CLI prints it as a warning). */
export type CacheFaultHandler = (message: string) => void;

/**
 * A SQLite file of replies; several processes may share it (WAL, busy timeout). A fault of the
 * cache itself — a file that is not a database, a corrupt row, a full or read-only disk — never
 * fails a run: the lookup is a miss, the store is skipped, the handler is told once (naming the
 * file and `--no-cache`), and after a fault of the database the cache is left alone for the rest
 * of the run.
 */
export class ResponseCache {
  private database: Database.Database | null = null;
  private select: Database.Statement<[string], { reply: string }> | null = null;
  private insert: Database.Statement<[string, string, string, string, string]> | null = null;
  private warned = false;

  private constructor(
    readonly file: string,
    private readonly onFault: CacheFaultHandler,
  ) {
    try {
      if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      const database = new Database(file);
      this.database = database;
      database.pragma('journal_mode = WAL');
      database.pragma('busy_timeout = 10000');
      database.pragma('synchronous = NORMAL');
      database.exec(
        'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, created_at TEXT NOT NULL, reply TEXT NOT NULL)',
      );
      this.select = database.prepare('SELECT reply FROM responses WHERE key = ?');
      this.insert = database.prepare(
        'INSERT OR REPLACE INTO responses (key, provider, model, created_at, reply) VALUES (?, ?, ?, ?, ?)',
      );
    } catch (error) {
      this.fail(error, true);
    }
  }

  /**
   * Opens (creating it and its folder if needed) the cache file; `:memory:` for a private in-memory
   * cache. Never throws.
   */
  static open(file: string, onFault: CacheFaultHandler = () => {}): ResponseCache {
    return new ResponseCache(file, onFault);
  }

  /** False once a fault of the database made the cache stand aside. */
  get usable(): boolean {
    return this.select !== null;
  }

  private fail(error: unknown, database: boolean): void {
    if (database) {
      this.select = null;
      this.insert = null;
      try {
        this.database?.close();
      } catch {
        // already unusable
      }
      this.database = null;
    }
    if (this.warned) return;
    this.warned = true;
    const reason = (error as Error)?.message ?? String(error);
    this.onFault(
      `the response cache ${this.file} cannot be used (${reason}); ${database ? 'running without it' : 'that entry counts as a miss'} (delete the file for a fresh cache, or pass --no-cache)`,
    );
  }

  /** The stored reply for `key`, if any; a fault is a miss. */
  get(key: string): StoredReply | undefined {
    if (!this.select) return undefined;
    let row: { reply: string } | undefined;
    try {
      row = this.select.get(key);
    } catch (error) {
      this.fail(error, true);
      return undefined;
    }
    if (!row) return undefined;
    try {
      const reply = JSON.parse(row.reply) as StoredReply;
      if (typeof reply?.text === 'string') return reply;
      throw new Error('a stored reply has no text');
    } catch (error) {
      this.fail(error, false);
      return undefined;
    }
  }

  /** Stores a reply (replacing any earlier one under the same key); a fault skips the store. */
  put(key: string, scope: CacheScope, result: ProviderResult): void {
    if (!this.insert) return;
    const reply: StoredReply = {
      text: result.text,
      ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}),
      usage: result.usage,
      finishReason: result.finishReason,
      ...(result.warnings ? { warnings: result.warnings } : {}),
    };
    try {
      this.insert.run(
        key,
        scope.provider,
        scope.model,
        new Date().toISOString(),
        JSON.stringify(reply),
      );
    } catch (error) {
      this.fail(error, true);
    }
  }

  /** Number of stored replies (0 when the cache stood aside). */
  get size(): number {
    if (!this.database) return 0;
    return (
      this.database.prepare('SELECT COUNT(*) AS count FROM responses').get() as { count: number }
    ).count;
  }

  close(): void {
    try {
      this.database?.close();
    } catch {
      // nothing to keep
    }
    this.database = null;
  }
}

/** How `withCache` caches: where, under which scope, and whether at all (`enabled: false` neither reads nor writes). */
export interface CachePolicy {
  cache: ResponseCache | null;
  scope: CacheScope;
  enabled: boolean;
  /** The JSON cap in force (`Limits.jsonDepth`): a reply nested deeper is not kept. Default `DEFAULT_LIMITS`'. */
  jsonDepth?: number;
}

/** Wraps a provider with the response cache; place it outermost so hits never wait for retries or slots. */
export function withCache(provider: Provider, policy: CachePolicy): Provider {
  const { cache } = policy;
  if (!policy.enabled || !cache) return provider;
  const maxDepth = policy.jsonDepth ?? DEFAULT_LIMITS.jsonDepth;
  return {
    id: provider.id,
    async generate(request, signal) {
      const key = cacheKey(policy.scope, request);
      const hit = cache.get(key);
      if (hit) return { ...hit, latencyMs: 0, attempts: 0, cached: true };
      const result = await provider.generate(request, signal);
      // A reply nested past the JSON cap is recorded as a parse failure; it is not kept, so a
      // rerun asks again instead of replaying it.
      if (textNestingDepth(result.text, maxDepth) <= maxDepth) cache.put(key, policy.scope, result);
      return result;
    },
  };
}
