/**
 * The run-directory line shapes: `predictions.jsonl` and `judgements.jsonl`. The types of
 * `rundir/schemas/result-lines.ts` (which writes and reads them), with the objects other modules
 * own — the parsed `Attempt`, the checks' `Findings`, the case `Facets`, contradictions, the
 * refinement rounds — typed as those modules define them. Dataset fields and the `tested_model` /
 * `model_response` / `judge_model` / `judgement` keys match the official harness; everything of
 * ours lives under `apb`.
 */
import type { z } from 'zod';
import type { Facets } from '../dataset/case.js';
import type { Findings } from '../judge/checks/findings.js';
import type { Contradiction } from '../judge/contradictions.js';
import type { CritiqueRecord, RevisionRecord } from '../refine/records.js';
import type {
  InitialAnswerSchema,
  JudgeErrorRecordSchema,
  JudgementLineKeysSchema,
  JudgementMetaSchema,
  JudgementSchema,
  LineRefinementSchema,
  MemberJudgementSchema,
  PredictionLineKeysSchema,
  PredictionMetaSchema,
  RefineSetupSchema,
} from '../rundir/schemas/index.js';
import type { Attempt } from '../settings/attempt.js';

export { RESULT_SCHEMA_VERSION } from '../rundir/schemas/index.js';

/** What identifies a refinement (the manifest's `identity.refinement`; part of every refined line's fingerprint). */
export type RefineSetup = z.infer<typeof RefineSetupSchema>;

/** The initial answer of a refined line and the verdict on it (the base of Table 4), under the refined line's judge. */
export type InitialAnswer = z.infer<typeof InitialAnswerSchema>;

/** `apb.refinement` of a refined line (CONTRACT.md, `apb refine`): the method, the source, the initial answer, every round. */
export type LineRefinement = Omit<
  z.infer<typeof LineRefinementSchema>,
  'critiques' | 'revisions'
> & {
  /** One per round, in order; `critiques[i].text` is round i+1's critique. */
  critiques: CritiqueRecord[];
  revisions: RevisionRecord[];
};

/** The planner side of one (case, repeat). */
export type PredictionMeta = Omit<
  z.infer<typeof PredictionMetaSchema>,
  'parsed' | 'facets' | 'refinement'
> & {
  parsed: Attempt | null;
  facets: Facets;
  /** `apb refine` lines: how the answer was refined (moved to `apb.refinement` in judgement lines). */
  refinement?: LineRefinement;
};

/** One `predictions.jsonl` line: the dataset fields and our keys. */
export type PredictionLine = Omit<z.infer<typeof PredictionLineKeysSchema>, 'apb'> & {
  [datasetField: string]: unknown;
  apb: PredictionMeta;
};

/** The official judgement keys; `grade` is null only for a judge error. */
export type Judgement = z.infer<typeof JudgementSchema>;

/** A judge error as recorded: the `Unjudged` reason, its message and the raw reply when there was one. */
export type JudgeErrorRecord = z.infer<typeof JudgeErrorRecordSchema>;

/** One panel member's judgement of the answer (`apb.judges[]`), with the official keys of its own verdict. */
export type MemberJudgement = Omit<z.infer<typeof MemberJudgementSchema>, 'contradictions'> & {
  /** LLM members with a verdict: where it contradicts the deterministic findings. */
  contradictions?: Contradiction[];
};

/** The judge side of one (case, repeat). */
export type JudgementMeta = Omit<
  z.infer<typeof JudgementMetaSchema>,
  'findings' | 'judges' | 'contradictions' | 'prediction' | 'refinement'
> & {
  findings: Findings | null;
  /** A panel's members, in the order given (the line's `judgement` is their aggregate). */
  judges?: MemberJudgement[];
  /** LLM judges (and panels holding one) with a verdict: where the judge's own verdict contradicts the findings. */
  contradictions?: Contradiction[];
  prediction: PredictionMeta;
  /** `apb refine` lines: the refinement behind the judged answer. */
  refinement?: LineRefinement;
};

/** One `judgements.jsonl` line written by apb: the dataset fields and our keys. */
export type JudgementLine = Omit<z.infer<typeof JudgementLineKeysSchema>, 'apb'> & {
  [datasetField: string]: unknown;
  apb: JudgementMeta;
};
