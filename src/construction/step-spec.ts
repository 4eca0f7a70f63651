/**
 * What each step is asked to do, as data: the one schema behind both `apb construct STEP` flags
 * and the steps of a pipeline config (snake_case keys, defaults here and nowhere else).
 */
import { z } from 'zod';
import { UNSOLVABLE_TYPES } from '../dataset/case.js';
import { DEFAULT_AUGMENT } from './augment.js';
import { DEFAULT_CUTS } from './cuts.js';
import { DEFAULT_LEVELS, DEFAULT_PARENTS_PER_REGIME } from './extraneous.js';
import { DEFAULT_UNSOLVABLE_PARENTS } from './unsolvable.js';

const common = {
  /** A name for the step in a pipeline (default `NN-step`). */
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only')
    .optional(),
  /** Input directories (or files for trajectories); in a pipeline also earlier steps' ids. */
  in: z.array(z.string().min(1)).optional(),
  seed: z.number().int().nonnegative().optional(),
  /** In a pipeline: false = no model for this step, a spec = this model, absent = the pipeline's. */
  llm: z.union([z.boolean(), z.string().min(1)]).optional(),
};
/** `reviewed_only` absent: by default only reviewed records once review decisions exist (review.ts). */
const sourceReading = { ...common, reviewed_only: z.boolean().optional() };
const ratio = z.number().gt(0).lt(1);

/** One step and its options. */
export const StepSpecSchema = z.discriminatedUnion('step', [
  z
    .object({
      step: z.literal('import'),
      ...common,
      from: z.enum(['tau2', 'trajectories']),
      domains: z
        .array(z.enum(['retail', 'airline']))
        .min(1)
        .default(['retail', 'airline']),
      task_split: z.enum(['train', 'test', 'all']).default('all'),
      execute: z.boolean().default(true),
      /** Trajectories: replace PII by placeholders (B.2); absent = for real-traffic sources only. */
      remove_pii: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      step: z.literal('augment'),
      ...common,
      /** Steps added per task on average (B.1: +4.5). */
      add_steps: z.number().positive().max(50).default(DEFAULT_AUGMENT.addSteps),
      /** Tools added per task on average (B.1: +5.6). */
      add_tools: z.number().nonnegative().max(50).default(DEFAULT_AUGMENT.addTools),
      /** Instead of add_steps: grow each task to this many steps on average (the release: 12.48). */
      target_steps: z.number().positive().max(100).nullable().default(null),
    })
    .strict(),
  z.object({ step: z.literal('check'), ...common }).strict(),
  z.object({ step: z.literal('holistic'), ...sourceReading }).strict(),
  z
    .object({
      step: z.literal('cuts'),
      ...sourceReading,
      ratios: z.array(ratio).min(1).default(DEFAULT_CUTS.ratios),
      horizons: z.array(z.number().int().min(1).max(3)).default(DEFAULT_CUTS.horizons),
      allow_unexecuted: z.boolean().default(false),
      /** Cut a record only when every asked cut fits (the release: a third per horizon). */
      complete_only: z.boolean().default(DEFAULT_CUTS.completeOnly),
      /** At most this many records, a seeded sample (the release: 300); null = all. */
      max_parents: z.number().int().positive().nullable().default(DEFAULT_CUTS.maxParents),
    })
    .strict(),
  z
    .object({
      step: z.literal('extraneous'),
      ...common,
      levels: z.array(z.number().int().min(1).max(50)).min(1).default(DEFAULT_LEVELS),
      pool: z.array(z.string().min(1)).default([]),
      /** Parents per regime, a seeded sample (the release: 150 + 150); null = every parent. */
      parents_per_regime: z
        .number()
        .int()
        .positive()
        .nullable()
        .default(DEFAULT_PARENTS_PER_REGIME),
    })
    .strict(),
  z.object({ step: z.literal('broken'), ...sourceReading }).strict(),
  z
    .object({
      step: z.literal('unsolvable'),
      ...common,
      types: z.array(z.enum(UNSOLVABLE_TYPES)).min(1).optional(),
      /** Holistic parents, a seeded sample (the release: 100, each in every type); null = all. */
      parents: z.number().int().positive().nullable().default(DEFAULT_UNSOLVABLE_PARENTS),
    })
    .strict(),
  z
    .object({
      step: z.literal('efficiency'),
      ...common,
      solved_by: z.array(z.string().min(1)).default([]),
    })
    .strict(),
]);
export type StepSpec = z.infer<typeof StepSpecSchema>;
