/**
 * `serve-plans.jsonl` (`apb serve --out DIR`): one line per new conversation, the plan apb put in
 * front of it (redacted as written). Lines without `schema_version` are version 0, the same shape.
 */
import { z } from 'zod';
import { PlanRecordSchema, RefinedPlanRecordSchema } from './exec-lines.js';

/** Version of `serve-plans.jsonl` lines. */
export const SERVE_PLAN_SCHEMA_VERSION = 1;

/** One `serve-plans.jsonl` line. */
export const ServePlanLineSchema = z.object({
  schema_version: z.literal(SERVE_PLAN_SCHEMA_VERSION),
  conversation: z.string(),
  mode: z.enum(['direct', 'plan-first', 'refine']),
  model: z.string(),
  at: z.string(),
  /** The conversation's first user request, the planner's task. */
  request: z.string(),
  /** A refined plan carries its rounds (`refine`); a draft does not (`plan-first`). */
  plan: z.union([RefinedPlanRecordSchema, PlanRecordSchema]),
});

/** Version 0 → 1: the shape is unchanged, only the version was absent. */
export function migrateServePlanLine(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const line = value as Record<string, unknown>;
  return line.schema_version === undefined
    ? { ...line, schema_version: SERVE_PLAN_SCHEMA_VERSION }
    : value;
}
