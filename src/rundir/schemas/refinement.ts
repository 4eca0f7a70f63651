/**
 * What `apb refine` records: the setup in the manifest's identity, `apb.refinement` on every refined
 * line (CONTRACT.md, `apb refine`) and the lines of its step journal, `refine-steps.jsonl`.
 */
import { z } from 'zod';
import {
  BaseUrlSchema,
  CallErrorSchema,
  FinishReasonSchema,
  SamplingSchema,
  UsageSchema,
} from './common.js';

/** Who critiques: the tested model itself, or another model. */
export const RefineModeSchema = z.enum(['self', 'critic']);

/** The manifest's `identity.refinement`: what identifies a refinement (part of every refined fingerprint). */
export const RefineSetupSchema = z.object({
  mode: RefineModeSchema,
  taxonomy: z.boolean(),
  /** The critic's spec; the tested model's in self-refinement. */
  critic: z.string(),
  critic_base_url: BaseUrlSchema,
  critic_sampling: SamplingSchema,
  rounds: z.number().int().positive(),
  /** Version of every critique and revision template together. */
  prompt_version: z.string(),
});

/** Call details shared by critiques and revisions. */
const CallRecordFields = {
  prompt_version: z.string(),
  usage: UsageSchema.nullable(),
  latency_ms: z.number().nullable(),
  finish_reason: FinishReasonSchema.nullable(),
  attempts: z.number().int().nonnegative(),
  cached: z.boolean(),
  error: CallErrorSchema.optional(),
};

/** One critique: `unreadable` when the critic answered with no text, `error` when its call failed. */
export const CritiqueRecordSchema = z.object({
  ...CallRecordFields,
  status: z.enum(['ok', 'unreadable', 'error']),
  critic: z.string(),
  text: z.string(),
});

/** One revision; `parsed` is the revised answer as `settings/` reads it (an `Attempt`, owned there). */
export const RevisionRecordSchema = z.object({
  ...CallRecordFields,
  status: z.enum(['ok', 'parse_error', 'error']),
  text: z.string(),
  parsed: z.looseObject({ kind: z.string() }).nullable(),
  parse_error: z.string().optional(),
});

/** The initial answer of a refined line and the verdict on it (the base of Table 4). */
export const InitialAnswerSchema = z.object({
  model_response: z.string(),
  status: z.enum(['ok', 'error', 'parse_error']),
  is_correct: z.boolean().nullable(),
  grade: z.number().nullable(),
  judge: z.string(),
  /** `none`: there was no answer to judge. */
  judge_status: z.enum(['ok', 'judge_error', 'none']),
  /** The source run's judgements, or a judge call made by apb refine. */
  judged_in: z.enum(['source', 'refine']),
  judge_usage: UsageSchema.nullable().optional(),
  judge_cached: z.boolean().optional(),
});

/** How a refinement ended (`no_initial_answer`: the source had nothing to refine). */
export const RefineStatusSchema = z.enum([
  'ok',
  'parse_error',
  'critique_failed',
  'critique_unreadable',
  'revision_failed',
  'no_initial_answer',
]);

/** `apb.refinement` of a refined line: the method, the source, the initial answer, every round. */
export const LineRefinementSchema = z.object({
  mode: RefineModeSchema,
  taxonomy: z.boolean(),
  critic: z.string(),
  /** Rounds asked for. */
  rounds: z.number().int().positive(),
  /** The round whose revision is the line's answer (the last one finished). */
  round: z.number().int().nonnegative(),
  status: RefineStatusSchema,
  source_run: z.object({ dir: z.string(), manifest_sha256: z.string(), fingerprint: z.string() }),
  initial: InitialAnswerSchema,
  /** One per round, in order; `critiques[i].text` is round i+1's critique. */
  critiques: z.array(CritiqueRecordSchema),
  revisions: z.array(RevisionRecordSchema),
});

/** One line of `refine-steps.jsonl`: a finished critique or revision, or an initial answer's verdict. */
export const RefineJournalLineSchema = z.discriminatedUnion('kind', [
  z.object({
    fingerprint: z.string(),
    kind: z.literal('critique'),
    round: z.number().int().positive(),
    record: CritiqueRecordSchema,
  }),
  z.object({
    fingerprint: z.string(),
    kind: z.literal('revision'),
    round: z.number().int().positive(),
    record: RevisionRecordSchema,
  }),
  z.object({ fingerprint: z.string(), kind: z.literal('initial'), record: InitialAnswerSchema }),
]);
