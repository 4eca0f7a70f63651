/**
 * What a run directory remembers of its provider batches (`--batch`, `providers/batch/store.ts`):
 * `batches.jsonl`, the append-only log of each batch's steps, and `batch-results.jsonl`, every
 * result item by request key. Lines without `schema_version` are version 0, the same shape.
 */
import { z } from 'zod';

/** Version of the batch journals' lines. */
export const BATCH_SCHEMA_VERSION = 1;

const Version = z.literal(BATCH_SCHEMA_VERSION).optional();

/** One line of `batches.jsonl`: intent → created → status → collected (or abandoned / submit-failed). */
export const BatchEventSchema = z.object({
  schema_version: Version,
  event: z.enum(['intent', 'created', 'status', 'collected', 'abandoned', 'submit-failed']),
  /** Ours: names the batch before the vendor has an id for it. */
  batch_key: z.string().min(1),
  at: z.string(),
  id: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  base_url: z.string().optional(),
  requests: z.number().int().nonnegative().optional(),
  status: z.string().optional(),
  counts: z
    .object({
      total: z.number().int().nonnegative(),
      succeeded: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    })
    .nullable()
    .optional(),
  error: z.string().optional(),
});

/** One line of `batch-results.jsonl`: a request's result item as the vendor gave it. */
export const BatchResultSchema = z.object({
  schema_version: Version,
  key: z.string().min(1),
  batch: z.string(),
  ok: z.boolean(),
  body: z.unknown().optional(),
  message: z.string().optional(),
  retryable: z.boolean().optional(),
});

/** Version 0 → 1 of a batch journal line: the shape is unchanged; the version is optional in both. */
export const migrateBatchLine = (value: unknown): unknown => value;
