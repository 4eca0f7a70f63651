/**
 * `unsolvable` (paper §3.1 "Unsolvable Planning", B.4.3, Figs. 14–17): holistic cases made
 * logically unsolvable, the reference being a refusal. The sampled parents and the types asked;
 * each type's builder is in unsolvable-types.ts. Rules: docs/construction.md ("unsolvable").
 */
import { UNSOLVABLE_TYPES, type Case, type UnsolvableType } from '../dataset/case.js';
import type { ConstructedCase } from './case-record.js';
import { sampleByHash } from './random.js';
import { mapInOrder, type Skip, type StepContext, type StepResult } from './step.js';
import { unsolvableVariant } from './unsolvable-types.js';

export { criticalTool } from './unsolvable-types.js';

/** The types that need `--llm`. */
export const MODEL_TYPES: readonly UnsolvableType[] = [
  'information_missing',
  'contradictory_constraints',
];

type Made = { cases: ConstructedCase[]; skipped: Skip[] };

async function variantsOf(
  parent: Case,
  types: readonly UnsolvableType[],
  context: StepContext,
): Promise<Made> {
  const made: Made = { cases: [], skipped: [] };
  for (const type of types) {
    const item = await unsolvableVariant(parent, type, context);
    if ('record' in item) made.cases.push(item);
    else made.skipped.push(item);
  }
  return made;
}

/** The release's 100 holistic parents, each made unsolvable in every type (§3.1: 400 = 100 × 4). */
export const DEFAULT_UNSOLVABLE_PARENTS = 100;

/**
 * Unsolvable variants of the holistic cases, one per asked type that applies: of every case, or of
 * a seeded sample of `maxParents` (by hash of the id), the others skipped with the reason.
 */
export async function constructUnsolvable(
  parents: readonly Case[],
  types: readonly UnsolvableType[] = UNSOLVABLE_TYPES,
  context: StepContext,
  maxParents: number | null = null,
): Promise<StepResult> {
  const holistic = parents.filter((parent) => parent.split === 'holistic_planning');
  const chosen =
    maxParents === null
      ? holistic
      : sampleByHash(holistic, maxParents, context.seed, 'unsolvable/parents', (item) => item.id);
  const notChosen: Skip[] = holistic
    .filter((parent) => !chosen.includes(parent))
    .map((parent) => ({
      step: 'unsolvable',
      parent_id: parent.id,
      reason: `not among the ${maxParents} sampled parents`,
    }));
  const made = await mapInOrder(chosen, context, (parent) => variantsOf(parent, types, context));
  return {
    cases: made.flatMap((item) => item.cases),
    skipped: [...notChosen, ...made.flatMap((item) => item.skipped)],
  };
}
