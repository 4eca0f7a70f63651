/**
 * The run-directory line shapes: `predictions.jsonl` and `judgements.jsonl`. Dataset fields and the
 * `tested_model` / `model_response` / `judge_model` / `judgement` keys match the official harness;
 * everything of ours lives under `apb`.
 */
import type { Facets } from '../dataset/case.js';
import type { Findings } from '../judge/checks/findings.js';
import type { Contradiction } from '../judge/contradictions.js';
import type { BrokenBehavior } from '../judge/verdict.js';
import type { FinishReason, SamplingParams, Usage } from '../providers/provider.js';
import type { Attempt } from '../settings/attempt.js';
import type { RefineMode } from '../refine/refine-prompts.js';
import type { CritiqueRecord, RefineStatus, RevisionRecord } from '../refine/records.js';

export const RESULT_SCHEMA_VERSION = 1;

/** The planner side of one (case, repeat). */
export interface PredictionMeta {
  schema_version: number;
  status: 'ok' | 'error' | 'parse_error';
  repeat: number;
  /** Resume key: hash of case content, repeat, tested model, prompt version and sampling parameters. */
  fingerprint: string;
  prompt_version: string;
  parsed: Attempt | null;
  parse_error?: string;
  error?: { kind: string; message: string; status?: number };
  usage: Usage | null;
  latency_ms: number | null;
  finish_reason: FinishReason | null;
  attempts: number;
  cached: boolean;
  /** The provider batch that answered (`--batch`); the call is billed at batch prices. */
  batch_id?: string;
  /** What the endpoint or SDK changed or got wrong (a dropped option, usage that was clamped or looks impossible). */
  warnings?: string[];
  facets: Facets;
  /** The case's line in its split file (1-based), so reports can list cases in dataset order. */
  dataset_line?: number;
  /** `apb refine` lines: how the answer was refined (moved to `apb.refinement` in judgement lines). */
  refinement?: LineRefinement;
}

/** What identifies a refinement (the manifest's `identity.refinement`; part of every refined line's fingerprint). */
export interface RefineSetup {
  mode: RefineMode;
  taxonomy: boolean;
  /** The critic's spec; the tested model's in self-refinement. */
  critic: string;
  critic_base_url: string | string[] | null;
  critic_sampling: SamplingParams;
  rounds: number;
  /** Version of every critique and revision template together. */
  prompt_version: string;
}

/** The initial answer of a refined line and the verdict on it (the base of Table 4), under the refined line's judge. */
export interface InitialAnswer {
  model_response: string;
  /** The source prediction's status. */
  status: PredictionMeta['status'];
  is_correct: boolean | null;
  grade: number | null;
  judge: string;
  /** `none`: there was no answer to judge. */
  judge_status: 'ok' | 'judge_error' | 'none';
  /** Where the verdict comes from: the source run's judgements, or a judge call made by apb refine (an LLM judge's usage is then recorded here). */
  judged_in: 'source' | 'refine';
  judge_usage?: Usage | null;
  judge_cached?: boolean;
}

/** `apb.refinement` of a refined line (CONTRACT.md, `apb refine`): the method, the source, the initial answer, every round. */
export interface LineRefinement {
  mode: RefineMode;
  taxonomy: boolean;
  critic: string;
  /** Rounds asked for. */
  rounds: number;
  /** The round whose revision is the line's answer (the last one finished). */
  round: number;
  status: RefineStatus | 'no_initial_answer';
  source_run: { dir: string; manifest_sha256: string; fingerprint: string };
  initial: InitialAnswer;
  /** One per round, in order; `critiques[i].text` is round i+1's critique. */
  critiques: CritiqueRecord[];
  revisions: RevisionRecord[];
}

export interface PredictionLine {
  [datasetField: string]: unknown;
  id: string;
  split: string;
  tested_model: string;
  model_response: string;
  apb: PredictionMeta;
}

/** The official judgement keys; `grade` is null only for a judge error. */
export interface Judgement {
  is_correct: boolean;
  grade: number | null;
  error_list: number[];
  reasoning: string;
  behavior?: BrokenBehavior;
  refused?: boolean;
}

/** A judge error as recorded: the `Unjudged` reason, its message and the raw reply when there was one. */
export interface JudgeErrorRecord {
  reason: string;
  message: string;
  raw_text?: string;
}

/** One panel member's judgement of the answer (`apb.judges[]`), with the official keys of its own verdict. */
export interface MemberJudgement {
  judge: string;
  kind: 'rules' | 'llm';
  version: string;
  status: 'ok' | 'judge_error';
  judgement: Judgement;
  judge_prompt_version: string;
  usage: Usage | null;
  latency_ms: number | null;
  attempts: number;
  cached: boolean;
  judge_error?: JudgeErrorRecord;
  /** LLM members with a verdict: where it contradicts the deterministic findings. */
  contradictions?: Contradiction[];
  notes: string[];
}

/** The judge side of one (case, repeat). */
export interface JudgementMeta {
  schema_version: number;
  status: 'ok' | 'judge_error';
  judge_kind: 'rules' | 'llm';
  judge_prompt_version: string;
  findings: Findings | null;
  usage: Usage | null;
  latency_ms: number | null;
  attempts: number;
  cached: boolean;
  judge_error?: JudgeErrorRecord;
  notes: string[];
  /** The provider batches that answered the judge's requests (`--batch`); billed at batch prices. */
  batch_ids?: string[];
  /** A panel's members, in the order given (the line's `judgement` is their aggregate). */
  judges?: MemberJudgement[];
  /** LLM judges (and panels holding one) with a verdict: where the judge's own verdict contradicts the findings. */
  contradictions?: Contradiction[];
  prediction: PredictionMeta;
  /** `apb refine` lines: the refinement behind the judged answer. */
  refinement?: LineRefinement;
}

export interface JudgementLine {
  [datasetField: string]: unknown;
  id: string;
  split: string;
  tested_model: string;
  model_response: string;
  judge_model: string;
  judgement: Judgement;
  apb: JudgementMeta;
}
