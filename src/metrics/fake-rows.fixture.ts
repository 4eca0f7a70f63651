/**
 * `fakeRow`: builds a `ResultRow` from a few overrides, for hand-computed metric fixtures (ours and
 * other modules' tests). Named as a fake: it invents every field it is not given.
 */
import { SPLIT_REGIME, type Facets, type SplitName } from '../dataset/case.js';
import { ERROR_CODES, NO_ERRORS, type ErrorFlags } from '../judge/verdict.js';
import type { ResultRow } from './result-row.js';

/** Overrides of a fake row; `facets` is merged into split-appropriate defaults. */
export type FakeRowOverrides = Partial<Omit<ResultRow, 'facets'>> & { facets?: Partial<Facets> };

/** E-flags from codes, e.g. `flags('E2', 'E4')`. */
export function flags(...codes: (typeof ERROR_CODES)[number][]): ErrorFlags {
  return ERROR_CODES.map((code) => codes.includes(code)) as ErrorFlags;
}

/** A judged row: correct unless told otherwise or failed; grade 1 when correct, 0 when not, null on a judge error. */
export function fakeRow(overrides: FakeRowOverrides = {}): ResultRow {
  const split: SplitName = overrides.facets?.split ?? 'holistic_planning';
  const judgeStatus = overrides.judgeStatus ?? 'ok';
  const correct =
    overrides.correct ?? ((overrides.plannerStatus ?? 'ok') === 'ok' && judgeStatus === 'ok');
  const facets: Facets = {
    split,
    regime: SPLIT_REGIME[split],
    source: null,
    sourceSubset: null,
    taskFamily: null,
    taskCategory: null,
    horizon: SPLIT_REGIME[split] === 'Step-wise' ? 1 : null,
    stage: null,
    distractorLevel: split.endsWith('tool_extraneous') ? 2 : null,
    unsolvableType: split === 'holistic_unsolvable' ? 'information_missing' : null,
    modality: 'text',
    referenceSteps: 3,
    baseCaseKey: `base:${overrides.id ?? 'case'}`,
    ...overrides.facets,
  };
  const { facets: _facets, ...rest } = overrides;
  return {
    id: 'case',
    model: 'model-a',
    judge: 'judge-x',
    repeat: 0,
    plannerStatus: 'ok',
    judgeStatus: 'ok',
    grade: judgeStatus === 'judge_error' ? null : correct ? 1 : 0,
    errors: [...NO_ERRORS],
    behavior: null,
    refused: null,
    findings: null,
    usage: { planner: null, judge: null },
    promptVersion: null,
    judgePromptVersion: null,
    ...rest,
    correct,
    facets,
  };
}

/** `count` copies of a fake row, with ids `${prefix}-0`, `${prefix}-1`, … (facets' base-case key follows the id). */
export function fakeRows(
  count: number,
  prefix: string,
  overrides: FakeRowOverrides = {},
): ResultRow[] {
  return Array.from({ length: count }, (_, index) =>
    fakeRow({ ...overrides, id: `${prefix}-${index}` }),
  );
}
