/**
 * Every file of a run directory, one entry each: its name, its zod schema (which writes and reads
 * it: types are `z.infer` of it), its current version and the migration of an older line or
 * document to that version. Stores take their file's entry; `parseRunFileValue` reads one value.
 * docs/architecture.md ("rundir/schemas/").
 */
import type { z } from 'zod';
import {
  BATCH_SCHEMA_VERSION,
  BatchEventSchema,
  BatchResultSchema,
  migrateBatchLine,
} from './batch-journal.js';
import {
  EXEC_SCHEMA_VERSION,
  ExecutionLineSchema,
  migrateExecutionLine,
  OpeningLineSchema,
} from './exec-lines.js';
import { InputError } from '../../errors.js';
import { firstIssue } from './line-issue.js';
import {
  EXEC_MANIFEST_SCHEMA_VERSION,
  ExecManifestSchema,
  MANIFEST_SCHEMA_VERSION,
  ManifestSchema,
  migrateExecManifest,
  ReplayManifestSchema,
} from './manifests.js';
import { RefineJournalLineSchema } from './refinement.js';
import {
  JudgementLineSchema,
  migrateResultLine,
  PredictionLineSchema,
  RESULT_SCHEMA_VERSION,
} from './result-lines.js';
import {
  migrateServePlanLine,
  SERVE_PLAN_SCHEMA_VERSION,
  ServePlanLineSchema,
} from './serve-plans.js';

/** One run-directory file: where it lives in the directory, how it is read and written. */
export interface RunFile<S extends z.ZodType = z.ZodType> {
  /** Path inside the run directory. */
  file: string;
  /** `jsonl`: one value per line; `json`: one document. */
  format: 'jsonl' | 'json';
  schema: S;
  /** The version the schema reads; `migrate` brings older values (version 0: no version field) to it. */
  version: number;
  migrate: (value: unknown) => unknown;
}

const same = (value: unknown): unknown => value;
const entry = <S extends z.ZodType>(file: RunFile<S>): RunFile<S> => file;

/** The registry of run-directory files, by id. */
export const RUN_FILES = {
  manifest: entry({
    file: 'manifest.json',
    format: 'json',
    schema: ManifestSchema,
    version: MANIFEST_SCHEMA_VERSION,
    migrate: same,
  }),
  /** What `apb exec --agent replay:` wrote as `manifest.json` before it shared the exec life cycle. */
  replayManifest: entry({
    file: 'manifest.json',
    format: 'json',
    schema: ReplayManifestSchema,
    version: 0,
    migrate: same,
  }),
  predictions: entry({
    file: 'predictions.jsonl',
    format: 'jsonl',
    schema: PredictionLineSchema,
    version: RESULT_SCHEMA_VERSION,
    migrate: migrateResultLine,
  }),
  judgements: entry({
    file: 'judgements.jsonl',
    format: 'jsonl',
    schema: JudgementLineSchema,
    version: RESULT_SCHEMA_VERSION,
    migrate: migrateResultLine,
  }),
  refineSteps: entry({
    file: 'refine-steps.jsonl',
    format: 'jsonl',
    schema: RefineJournalLineSchema,
    version: RESULT_SCHEMA_VERSION,
    migrate: same,
  }),
  executions: entry({
    file: 'executions.jsonl',
    format: 'jsonl',
    schema: ExecutionLineSchema,
    version: EXEC_SCHEMA_VERSION,
    migrate: migrateExecutionLine,
  }),
  plans: entry({
    file: 'plans.jsonl',
    format: 'jsonl',
    schema: OpeningLineSchema,
    version: EXEC_SCHEMA_VERSION,
    migrate: same,
  }),
  execManifest: entry({
    file: 'exec-manifest.json',
    format: 'json',
    schema: ExecManifestSchema,
    version: EXEC_MANIFEST_SCHEMA_VERSION,
    migrate: migrateExecManifest,
  }),
  batches: entry({
    file: 'batches.jsonl',
    format: 'jsonl',
    schema: BatchEventSchema,
    version: BATCH_SCHEMA_VERSION,
    migrate: migrateBatchLine,
  }),
  batchResults: entry({
    file: 'batch-results.jsonl',
    format: 'jsonl',
    schema: BatchResultSchema,
    version: BATCH_SCHEMA_VERSION,
    migrate: migrateBatchLine,
  }),
  servePlans: entry({
    file: 'serve-plans.jsonl',
    format: 'jsonl',
    schema: ServePlanLineSchema,
    version: SERVE_PLAN_SCHEMA_VERSION,
    migrate: migrateServePlanLine,
  }),
} satisfies Record<string, RunFile>;

/** The id of a run-directory file. */
export type RunFileId = keyof typeof RUN_FILES;

/** A value of a run file as its schema reads it. */
export type RunFileValue<Id extends RunFileId> = z.output<(typeof RUN_FILES)[Id]['schema']>;

/**
 * Migrates one value and checks it against its file's schema. The value comes back whole, as
 * migrated — members the schema does not name are kept, so a line a newer apb wrote survives a
 * resume by this one — which is why no `RUN_FILES` schema transforms.
 */
export function checkRunFileValue<Id extends RunFileId>(
  id: Id,
  value: unknown,
): { ok: true; value: RunFileValue<Id> } | { ok: false; field: string; message: string } {
  const runFile: RunFile = RUN_FILES[id];
  const migrated = runFile.migrate(value);
  const parsed = runFile.schema.safeParse(migrated);
  if (parsed.success) return { ok: true, value: migrated as RunFileValue<Id> };
  return { ok: false, ...firstIssue(parsed.error) };
}

/** `checkRunFileValue` for line `line` of `file` (1 for a JSON document); a mismatch throws `FILE:LINE: field: message`. */
export function parseRunFileValue<Id extends RunFileId>(
  id: Id,
  value: unknown,
  where: { file: string; line: number },
): RunFileValue<Id> {
  const checked = checkRunFileValue(id, value);
  if (checked.ok) return checked.value;
  throw new InputError([{ ...where, field: checked.field, message: checked.message }]);
}

/**
 * A run file's schema, migration included, in the stores' `safeParse` shape
 * (`rundir/line-schema.ts`): what a store reads back is checked and kept whole, as migrated.
 */
export function runFileLineSchema<Id extends RunFileId>(id: Id) {
  return {
    safeParse(value: unknown) {
      const checked = checkRunFileValue(id, value);
      if (checked.ok) return { success: true as const, data: checked.value };
      const issues = [{ path: [checked.field], message: checked.message }];
      return { success: false as const, error: { issues } };
    },
  };
}

export * from './batch-journal.js';
export * from './boolean.js';
export * from './common.js';
export * from './exec-lines.js';
export * from './line-issue.js';
export * from './manifests.js';
export * from './official-line.js';
export * from './refinement.js';
export * from './result-lines.js';
export * from './serve-plans.js';
