/**
 * The one adapter for the official harness's judgement lines (`{model}_offline_judged.jsonl`: the
 * dataset fields, `tested_model`, `model_response`, `judge_model`, `judgement`; no `apb`). Its
 * judgement keys are read as its scorer reads them, with apb's strict boolean rule: `is_correct`
 * true/false or 1/0, `grade` a number in [0, 1], `error_list` six 0/1 flags, and the legacy
 * tool-broken evaluator's `category_name` / `category`. A value that cannot be read is null — the
 * line stays a record, without a verdict (audit §3.1) — never a guess. docs/metrics.md.
 */
import { z } from 'zod';
import { officialBoolean } from './boolean.js';

/** The tool-broken behaviours, in the paper's words. */
export const BEHAVIORS = ['replace', 'alter', 'retry', 'refuse', 'other'] as const;
/** One tool-broken behaviour. */
export type Behavior = (typeof BEHAVIORS)[number];

const SYNONYMS: Record<string, Behavior> = {
  replacement: 'replace',
  alternative: 'alter',
  refusal: 'refuse',
};
// The legacy tool-broken evaluator's integer categories (audit §2.6): 1 replacement … 5 other.
const LEGACY_CATEGORIES: Record<number, Behavior> = {
  1: 'replace',
  2: 'alter',
  3: 'retry',
  4: 'refuse',
  5: 'other',
};

/** A behaviour: one of the five, a synonym or a legacy category number; other text is `other`, absence null. */
export function behaviorOf(value: unknown): Behavior | null {
  if (typeof value === 'number') return LEGACY_CATEGORIES[value] ?? 'other';
  if (typeof value !== 'string' || value.trim() === '') return null;
  const word = value.trim().toLowerCase();
  if ((BEHAVIORS as readonly string[]).includes(word)) return word as Behavior;
  return SYNONYMS[word] ?? 'other';
}

/** A grade in [0, 1] as given (snapping to the grid is the reader's); anything else null. */
export function officialGrade(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1
    ? value
    : null;
}

/** E1..E6 as six flags, each by the strict boolean rule; anything else null. */
export function officialErrorList(value: unknown): boolean[] | null {
  if (!Array.isArray(value) || value.length !== 6) return null;
  const flags = value.map(officialBoolean);
  return flags.every((flag) => flag !== undefined) ? (flags as boolean[]) : null;
}

/** A judgement object (the official harness's or ours) in one normalised form. */
export interface ReadJudgement {
  /** null: no readable `is_correct` (the record has no verdict). */
  isCorrect: boolean | null;
  grade: number | null;
  errors: boolean[] | null;
  behavior: Behavior | null;
  refused: boolean | null;
  reasoning: string | null;
}

type Loose = Record<string, unknown>;

/** Reads a judgement object by the official scorer's rules (see the file comment). */
export function readJudgement(value: unknown): ReadJudgement {
  const judgement: Loose =
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : {};
  return {
    isCorrect: officialBoolean(judgement.is_correct) ?? null,
    grade: officialGrade(judgement.grade),
    errors: officialErrorList(judgement.error_list),
    behavior:
      behaviorOf(judgement.behavior) ??
      behaviorOf(judgement.category_name) ??
      behaviorOf(judgement.category),
    refused: officialBoolean(judgement.refused) ?? null,
    reasoning: typeof judgement.reasoning === 'string' ? judgement.reasoning : null,
  };
}

/** An official-harness judgement line: the keys it must have; its dataset fields are kept as given. */
export const OfficialJudgementLineSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  split: z.string(),
  tested_model: z.string().optional(),
  model_response: z.unknown().optional(),
  judge_model: z.string().optional(),
  judgement: z.unknown().optional().transform(readJudgement),
});

/** A parsed official-harness line: its `judgement` read into the normalised form. */
export type OfficialJudgementLine = z.output<typeof OfficialJudgementLineSchema>;
