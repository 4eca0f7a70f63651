/** What a batcher is told (its options, the models it calls) and what it tells the CLI (its events). */
import type { Limits } from '../../limits.js';
import type { CacheScope } from '../cache.js';
import type { BatchCounts, BatchProviderId } from './client.js';
import type { createBatchClient } from './clients.js';

/** Progress of the batches, for the CLI. */
export interface BatchEventInfo {
  kind: 'submitted' | 'status' | 'collected' | 'resumed' | 'failed' | 'timed-out';
  id: string;
  provider: string;
  model: string;
  requests: number;
  status?: string;
  counts?: BatchCounts | null;
  /** Why the batch failed as a whole, and whether its requests go into smaller batches. */
  reason?: string;
  split?: boolean;
}

/** How the batcher works. */
export interface BatcherOptions {
  /** Between status requests (default 30 s). */
  pollMs?: number;
  /** Batch attempts per request before its failure is final (default 3: the first and two more). */
  maxAttempts?: number;
  /** `--batch-max-requests`: requests per batch (default: the vendor's limit). */
  maxRequests?: number;
  /** `--batch-max-tokens`: estimated tokens (input + output cap) per batch (default: no cap). */
  maxTokens?: number;
  /** `--batch-timeout`: a batch still running this long after its creation is cancelled (default: none). */
  timeoutMs?: number;
  onEvent?: (event: BatchEventInfo) => void;
  /** Test seam: the vendor client for a model (default: the vendor SDK's). */
  createClient?: typeof createBatchClient;
  /** The caps results are read under (the reply and JSON caps); default `DEFAULT_LIMITS`. */
  limits?: Limits;
}

/** Who a batch provider calls: one model of a batch-capable vendor at one base URL. */
export interface BatchTarget {
  id: string;
  provider: BatchProviderId;
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  scope: CacheScope;
}
