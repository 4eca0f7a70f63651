/**
 * The one response cache: SQLite (WAL, one table). The key hashes only what changes the output — never API keys,
 * concurrency, retries or timeouts. A hit is marked `cached: true` with 0 attempts and 0 latency.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson } from '../canonical-json.js';
import type { ChatMessage, FinishReason, ModelToolCall, Provider, ProviderRequest, ProviderResult, Usage } from './provider.js';

/** Bump when the key's inputs or the stored reply change shape: old entries are then never hit. */
export const CACHE_SCHEMA_VERSION = 1;

/** Who answers: part of the key, so the same prompt to another model or endpoint is another entry. */
export interface CacheScope {
  /** Provider id, e.g. `openai`. */
  provider: string;
  model: string;
  /** The base URL the request goes to (a local vLLM and OpenRouter serve different weights under one name). */
  baseUrl: string | null;
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
  const parts = message.parts.map((part) => (part.type === 'text' ? { text: part.text } : { imageSha256: part.file.sha256 }));
  return 'toolCalls' in message ? { role: message.role, parts, toolCalls: message.toolCalls } : { role: message.role, parts };
}

/**
 * The inputs of a cache key, images replaced by their sha256. Tools and tool choice enter only when a request
 * has them, so the keys of plain text requests are unchanged (no schema bump, no cold cache).
 */
export function cacheKeyInputs(scope: CacheScope, request: ProviderRequest): Record<string, unknown> {
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


/** A SQLite file of replies; several processes may share it (WAL, busy timeout). */
export class ResponseCache {
  private readonly database: Database.Database;
  private readonly select: Database.Statement<[string], { reply: string }>;
  private readonly insert: Database.Statement<[string, string, string, string, string]>;

  private constructor(database: Database.Database) {
    this.database = database;
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 10000');
    database.pragma('synchronous = NORMAL');
    database.exec(
      'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, created_at TEXT NOT NULL, reply TEXT NOT NULL)',
    );
    this.select = database.prepare('SELECT reply FROM responses WHERE key = ?');
    this.insert = database.prepare('INSERT OR REPLACE INTO responses (key, provider, model, created_at, reply) VALUES (?, ?, ?, ?, ?)');
  }

  /** Opens (creating it and its folder if needed) the cache file; `:memory:` for a private in-memory cache. */
  static open(file: string): ResponseCache {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new ResponseCache(new Database(file));
  }

  /** The stored reply for `key`, if any. */
  get(key: string): StoredReply | undefined {
    const row = this.select.get(key);
    return row ? (JSON.parse(row.reply) as StoredReply) : undefined;
  }

  /** Stores a reply (replacing any earlier one under the same key). */
  put(key: string, scope: CacheScope, result: ProviderResult): void {
    const reply: StoredReply = {
      text: result.text,
      ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}),
      usage: result.usage,
      finishReason: result.finishReason,
      ...(result.warnings ? { warnings: result.warnings } : {}),
    };
    this.insert.run(key, scope.provider, scope.model, new Date().toISOString(), JSON.stringify(reply));
  }

  /** Number of stored replies. */
  get size(): number {
    return (this.database.prepare('SELECT COUNT(*) AS count FROM responses').get() as { count: number }).count;
  }

  close(): void {
    this.database.close();
  }
}

/** How `withCache` caches: where, under which scope, and whether at all (`enabled: false` neither reads nor writes). */
export interface CachePolicy {
  cache: ResponseCache | null;
  scope: CacheScope;
  enabled: boolean;
}

/** Wraps a provider with the response cache; place it outermost so hits never wait for retries or slots. */
export function withCache(provider: Provider, policy: CachePolicy): Provider {
  const { cache } = policy;
  if (!policy.enabled || !cache) return provider;
  return {
    id: provider.id,
    async generate(request, signal) {
      const key = cacheKey(policy.scope, request);
      const hit = cache.get(key);
      if (hit) return { ...hit, latencyMs: 0, attempts: 0, cached: true };
      const result = await provider.generate(request, signal);
      cache.put(key, policy.scope, result);
      return result;
    },
  };
}
