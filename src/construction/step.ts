/** What every construction step shares: its context (seed, optional model) and its result (cases and skips). */
import type { Limits } from '../limits.js';
import type { ConstructedCase } from './case-record.js';
import { runPool, type PoolControl } from '../rundir/pool.js';
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

/**
 * A step's pool stops only on a failure: a model's fatal error (a rejected key, the budget, an
 * abort) is thrown by `ask` and fails the step; every other failed call is already an item's skip.
 */
const NEVER_HALTED: PoolControl = { halted: () => false, expected: () => false };

/**
 * Runs `work` over items through the one pool (`rundir/pool.ts`) with the model's concurrency
 * (one at a time for deterministic steps), results in input order. The first failure stops
 * launching; it is thrown once the items in flight have settled.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  context: StepContext,
  work: (item: T) => Promise<R> | R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let done = 0;
  // Progress counts items as they end; the results still land at their input index.
  const task = async (item: T) => {
    const result = await work(item);
    context.onItem?.(++done, items.length);
    return result;
  };
  await runPool(
    items,
    { concurrency: context.model?.concurrency ?? 1, ordered: true },
    task,
    NEVER_HALTED,
    (result, _item, index) => (results[index] = result),
  );
  return results;
}
