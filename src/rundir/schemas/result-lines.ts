/**
 * `predictions.jsonl` and `judgements.jsonl`. The dataset fields and the `tested_model` /
 * `model_response` / `judge_model` / `judgement` keys are the official harness's (CONTRACT.md);
 * everything of ours lives under `apb`, versioned by `apb.schema_version`. Objects another module
 * owns (the parsed `Attempt`, the checks' `Findings`, the case `Facets`) are checked here only for
 * the members readers rely on, and kept whole.
 */
import { z } from 'zod';
import { CallErrorSchema, FinishReasonSchema, UsageSchema } from './common.js';
import { LineRefinementSchema } from './refinement.js';

/** Version of the `apb` block of result lines; a line without `apb.schema_version` is version 0. */
export const RESULT_SCHEMA_VERSION = 1;

const Count = z.number().int().nonnegative();
const Version = z.literal(RESULT_SCHEMA_VERSION);

/** The dataset fields every result line starts with: the case line as the dataset holds it. */
const DatasetFields = { id: z.string().min(1), split: z.string() };

/** The planner side of one (case, repeat): `apb` of a prediction line, `apb.prediction` of a judgement line. */
export const PredictionMetaSchema = z.object({
  schema_version: Version,
  status: z.enum(['ok', 'error', 'parse_error']),
  repeat: Count,
  /** Resume key: hash of case content, repeat, tested model, prompt version and sampling parameters. */
  fingerprint: z.string().min(1),
  prompt_version: z.string(),
  /** The answer as `settings/` read it (an `Attempt`). */
  parsed: z.looseObject({ kind: z.string() }).nullable(),
  parse_error: z.string().optional(),
  error: CallErrorSchema.optional(),
  usage: UsageSchema.nullable(),
  latency_ms: z.number().nullable(),
  finish_reason: FinishReasonSchema.nullable(),
  attempts: Count,
  cached: z.boolean(),
  /** The provider batch that answered (`--batch`); billed at batch prices. */
  batch_id: z.string().optional(),
  /** What the endpoint or SDK changed or got wrong. */
  warnings: z.array(z.string()).optional(),
  /** The case's facets (`dataset/case.ts` `Facets`). */
  facets: z.looseObject({ split: z.string(), baseCaseKey: z.string() }),
  /** The case's line in its split file (1-based). */
  dataset_line: z.number().int().positive().optional(),
  /** `apb refine` prediction lines: how the answer was refined. */
  refinement: LineRefinementSchema.optional(),
});

/** The keys of a `predictions.jsonl` line besides the dataset fields it carries through. */
export const PredictionLineKeysSchema = z.object({
  ...DatasetFields,
  tested_model: z.string(),
  model_response: z.string(),
  apb: PredictionMetaSchema,
});

/** One `predictions.jsonl` line: the dataset fields (kept as given) and our keys. */
export const PredictionLineSchema = PredictionLineKeysSchema.loose();

/** The tool-broken behaviours (`judge/verdict.ts`). */
export const BrokenBehaviorSchema = z.enum(['replace', 'alter', 'retry', 'refuse', 'other']);

/** The official judgement keys as apb writes them; `grade` is null only for a judge error. */
export const JudgementSchema = z.object({
  is_correct: z.boolean(),
  grade: z.number().min(0).max(1).nullable(),
  error_list: z.array(z.number().int().min(0).max(1)).length(6),
  reasoning: z.string(),
  behavior: BrokenBehaviorSchema.optional(),
  refused: z.boolean().optional(),
});

/** A judge error as recorded: the `Unjudged` reason, its message and the raw reply when there was one. */
export const JudgeErrorRecordSchema = z.object({
  reason: z.string(),
  message: z.string(),
  raw_text: z.string().optional(),
});

/** The call fields every judge record carries. */
const JudgeCallFields = {
  judge_prompt_version: z.string(),
  usage: UsageSchema.nullable(),
  latency_ms: z.number().nullable(),
  attempts: Count,
  cached: z.boolean(),
  judge_error: JudgeErrorRecordSchema.optional(),
  /** Where an LLM verdict contradicts the deterministic findings (`judge/contradictions.ts`). */
  contradictions: z.array(z.looseObject({})).optional(),
  notes: z.array(z.string()),
};

/** One panel member's judgement of the answer (`apb.judges[]`). */
export const MemberJudgementSchema = z.object({
  judge: z.string(),
  kind: z.enum(['rules', 'llm']),
  version: z.string(),
  status: z.enum(['ok', 'judge_error']),
  judgement: JudgementSchema,
  ...JudgeCallFields,
});

/** The judge side of one (case, repeat): `apb` of a judgement line. */
export const JudgementMetaSchema = z.object({
  schema_version: Version,
  status: z.enum(['ok', 'judge_error']),
  judge_kind: z.enum(['rules', 'llm']),
  /** The deterministic checks' findings (`judge/checks/findings.ts`), null when none ran. */
  findings: z.looseObject({}).nullable(),
  ...JudgeCallFields,
  /** The provider batches that answered the judge's requests (`--batch`). */
  batch_ids: z.array(z.string()).optional(),
  /** A panel's members, in the order given (the line's `judgement` is their aggregate). */
  judges: z.array(MemberJudgementSchema).optional(),
  prediction: PredictionMetaSchema,
  /** `apb refine` lines: the refinement behind the judged answer. */
  refinement: LineRefinementSchema.optional(),
});

/** The keys of a `judgements.jsonl` line besides the dataset fields it carries through. */
export const JudgementLineKeysSchema = z.object({
  ...DatasetFields,
  tested_model: z.string(),
  model_response: z.string(),
  judge_model: z.string(),
  judgement: JudgementSchema,
  apb: JudgementMetaSchema,
});

/** One `judgements.jsonl` line written by apb: the dataset fields (kept as given) and our keys. */
export const JudgementLineSchema = JudgementLineKeysSchema.loose();

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null;

/** Version 0 → 1 of a result line's `apb` block: the shape is unchanged, only the version was absent. */
export function migrateResultLine(value: unknown): unknown {
  const line = asObject(value);
  const apb = asObject(line?.apb);
  if (!line || !apb) return value;
  const prediction = asObject(apb.prediction);
  return {
    ...line,
    apb: {
      ...apb,
      schema_version: apb.schema_version ?? RESULT_SCHEMA_VERSION,
      ...(prediction
        ? {
            prediction: {
              ...prediction,
              schema_version: prediction.schema_version ?? RESULT_SCHEMA_VERSION,
            },
          }
        : {}),
    },
  };
}
