/** What every construction step shares: its context (seed, optional model) and its result (cases and skips). */
import type { Limits } from '../limits.js';
import type { ConstructedCase } from './case-record.js';
import type { ConstructionModel } from './model.js';

/** The step ids, in pipeline order. */
export const STEP_IDS = [
  'import',
  'augment',
  'check',
  'holistic',
  'cuts',
  'extraneous',
  'broken',
  'unsolvable',
  'efficiency',
] as const;
export type StepId = (typeof STEP_IDS)[number];

/** What a step is run with. */
export interface StepContext {
  seed: number;
  /** The `--llm` model, when the step should generate with one. */
  model?: ConstructionModel | undefined;
  /** The directory the `files` of source records are relative to (where `sources.jsonl` lives). */
  sourceRoot?: string | undefined;
  /** Called after each item, for progress. */
  onItem?: ((done: number, total: number) => void) | undefined;
  /** The caps inputs are read under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}

/** An input item a step made nothing from, and why. */
export interface Skip {
  step: StepId;
  parent_id: string;
  reason: string;
}

/** What a case-producing step returns. */
export interface StepResult {
  cases: ConstructedCase[];
  skipped: Skip[];
}

/** Runs `work` over items with the model's concurrency (all at once for deterministic steps), keeping input order. */
export async function mapInOrder<T, R>(
  items: readonly T[],
  context: StepContext,
  work: (item: T) => Promise<R> | R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const lanes = Math.max(1, Math.min(items.length, context.model?.concurrency ?? 1));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
        context.onItem?.(++done, items.length);
      }
    }),
  );
  return results;
}
