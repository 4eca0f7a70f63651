/**
 * The manifests of a run directory: `manifest.json` of `apb run` / `judge` / `refine` / `merge`
 * (versioned by `schema_version`), the one `apb exec --agent replay:` wrote before it shared the exec
 * life cycle, and `exec-manifest.json` (a manifest without `schema_version` is version 0).
 */
import { z } from 'zod';
import {
  BaseUrlSchema,
  BudgetSchema,
  CountSchema as Count,
  RunStatusSchema,
  SamplingSchema,
  UsageTotalsSchema,
} from './common.js';
import { RefineSetupSchema } from './refinement.js';

/** Version of `manifest.json`. */
export const MANIFEST_SCHEMA_VERSION = 1;
/** Version of `exec-manifest.json`. */
export const EXEC_MANIFEST_SCHEMA_VERSION = 1;

/** The latest invocation's counts of one endpoint (`providers/endpoints.ts`). */
export const EndpointStatsSchema = z.object({
  endpoint: z.string(),
  requests: Count,
  ok: Count,
  rate_limited: Count,
  failed: Count,
  max_in_flight: Count,
  limit: Count,
  min_limit: Count,
  set_aside: Count,
});

/** Everything that must be equal for two invocations to write into one directory. */
export const ManifestIdentitySchema = z.object({
  dataset_content_hash: z.string(),
  tested_model: z.string(),
  base_url: BaseUrlSchema,
  judges: z.array(z.string()),
  judge_base_url: BaseUrlSchema,
  judge_version: z.string(),
  protocol: z.enum(['paper', 'official']),
  allow_refusal: z.boolean(),
  judge_blind: z.boolean(),
  /** Split name → planner prompt version. */
  prompt_versions: z.record(z.string(), z.string()),
  sampling: SamplingSchema,
  /** `apb refine` directories: how the answers were refined. */
  refinement: RefineSetupSchema.optional(),
});

/** What `manifest.json` of a merged directory records about its sources. */
export const MergeRecordSchema = z.object({
  sources: z.array(
    z.object({
      dir: z.string(),
      shard: z.string().nullable(),
      status: RunStatusSchema,
      base_url: BaseUrlSchema,
      judge_base_url: BaseUrlSchema,
    }),
  ),
  missing_shards: z.array(z.number().int().positive()),
  duplicates_dropped: z.object({ predictions: Count, judgements: Count }),
});

/** The members of `manifest.json` every run directory has (`apb run`, `judge`, `refine`, `merge`). */
export const ManifestKeysSchema = z.object({
  apb_version: z.string(),
  schema_version: z.literal(MANIFEST_SCHEMA_VERSION),
  /** `stopped-budget`: `--max-cost` stopped new calls; what is missing is resumable. */
  status: RunStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  dataset: z.object({ path: z.string(), content_hash: z.string() }),
  splits: z.array(z.string()),
  selection: z.object({
    limit: z.number().int().positive().nullable(),
    ids: z.array(z.string()).nullable(),
    shard: z.string().nullable(),
    repeats: z.number().int().positive(),
  }),
  identity: ManifestIdentitySchema,
  counts: z.object({
    cases: Count,
    invalid_records: Count,
    resumed: Count,
    predictions: z.object({ ok: Count, error: Count, parse_error: Count }),
    judgements: z.object({ ok: Count, judge_error: Count }),
    /** Finished case runs per failure reason (result-rows.ts `failureReasonOf`). */
    failure_reasons: z.record(z.string(), Count).optional(),
  }),
  /** `prices_as_of`: the `as_of` date of `data/prices.json`, which every `cost_usd` was computed with. */
  usage: z.object({
    planner: UsageTotalsSchema,
    judge: UsageTotalsSchema,
    critic: UsageTotalsSchema.optional(),
    prices_as_of: z.string().nullable().optional(),
  }),
  /** The latest invocation's progress basis (the viewer's "N of M, ETA"). */
  progress: z.object({ total: Count, already_done: Count, started_at: z.string() }).optional(),
  budget: BudgetSchema.optional(),
  endpoints: z.array(EndpointStatsSchema).optional(),
  /** Set by `apb merge`: the directories this one was merged from. */
  merge: MergeRecordSchema.optional(),
});

/** `manifest.json`: those members, and what a command adds (`apb judge`'s and `apb refine`'s sections) kept as given. */
export const ManifestSchema = ManifestKeysSchema.loose();

/** `manifest.json` of an `apb exec --agent replay:` directory, as the replay wrote it (no version). */
export const ReplayManifestSchema = z.looseObject({
  apb_version: z.string(),
  command: z.literal('exec'),
  env: z.string(),
  agent: z.string(),
  nl_judge: z.string().nullable(),
  split: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  counts: z.looseObject({ tasks: Count, rewardOne: Count, rewardZero: Count }),
  interrupted: z.boolean(),
});

/** What must be equal for executions to share a directory. */
export const ExecIdentitySchema = z.object({
  env: z.string(),
  model: z.string(),
  user_model: z.string(),
  critic: z.string(),
  taxonomy: z.boolean(),
  judge: z.string(),
  max_steps: z.number().int().positive(),
  max_errors: z.number().int().positive(),
  prompt_versions: z.record(z.string(), z.string()),
  sampling: z.record(z.string(), z.unknown()),
  /** The frozen clock of an environment that has one (ToolSandbox's `--clock`), in UTC. */
  clock: z.string().optional(),
});

/** `exec-manifest.json`: identity, selection and outcome of an exec run directory. */
export const ExecManifestSchema = z.object({
  kind: z.literal('exec'),
  schema_version: z.literal(EXEC_MANIFEST_SCHEMA_VERSION),
  apb_version: z.string(),
  identity: ExecIdentitySchema,
  modes: z.array(z.string()),
  trials: z.number().int().positive(),
  tasks: Count,
  started_at: z.string(),
  ended_at: z.string().nullable(),
  status: RunStatusSchema,
  executions: z.object({ total: Count, finished: Count, already_done: Count }),
  budget: BudgetSchema.optional(),
  endpoints: z.array(EndpointStatsSchema).optional(),
});

/** Version 0 → 1 of `exec-manifest.json`: unchanged but for the version it lacked. */
export function migrateExecManifest(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const manifest = value as Record<string, unknown>;
  return manifest.schema_version === undefined
    ? { ...manifest, schema_version: EXEC_MANIFEST_SCHEMA_VERSION }
    : value;
}
