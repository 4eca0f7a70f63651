import { describe, expect, it } from 'vitest';
import type { SplitName } from '../dataset/case.js';
import { baseVsExtraneous, byDistractorLevel, extUse, toolExtraneousBlock } from './extraneous.js';
import { noFindings } from '../judge/checks/findings.js';
import { fakeRow, flags } from './fake-rows.fixture.js';
import type { ResultRow } from './result-row.js';

const used = (count: number) =>
  noFindings({ distractorUse: { names: count > 0 ? ['decoy'] : [], count } });
const ext = (split: SplitName, level: number, key: string, overrides: Partial<ResultRow> = {}) =>
  fakeRow({
    id: `${key}@${level}`,
    findings: used(0),
    ...overrides,
    facets: { split, distractorLevel: level, baseCaseKey: key },
  });

// Holistic half: level 2 → 2 cases (1 correct, 1 wrong with E2+E5, 2 distractor calls);
// level 4 → 3 cases (all correct, 1 distractor call). Pooled CR 4/5 = 80 %, level mean (50 + 100)/2
// = 75 %.
const HOLISTIC = [
  ext('holistic_tool_extraneous', 2, 'k1', { findings: used(0) }),
  ext('holistic_tool_extraneous', 2, 'k2', {
    correct: false,
    grade: 0.4,
    errors: flags('E2', 'E5'),
    findings: used(2),
  }),
  ext('holistic_tool_extraneous', 4, 'k1', { findings: used(1) }),
  ext('holistic_tool_extraneous', 4, 'k2'),
  ext('holistic_tool_extraneous', 4, 'k3'),
];
// Step-wise half: 4 cases at level 2, 2 correct; one wrong with E2, one planner error (no findings, counts 0 uses).
const STEP_WISE = [
  ext('step_wise_tool_extraneous', 2, 's1'),
  ext('step_wise_tool_extraneous', 2, 's2'),
  ext('step_wise_tool_extraneous', 2, 's3', { correct: false, grade: 0.6, errors: flags('E2') }),
  ext('step_wise_tool_extraneous', 2, 's4', { plannerStatus: 'error', findings: null }),
];

describe('extUse (ExtUse / TC)', () => {
  it('sums distractor calls; a failed planner row adds 0', () => {
    expect(extUse(HOLISTIC)).toBe(3);
    expect(extUse(STEP_WISE)).toBe(0);
  });

  it('is null when an answered row has no findings (official lines) or the group is empty', () => {
    expect(
      extUse([...HOLISTIC, ext('holistic_tool_extraneous', 2, 'k9', { findings: null })]),
    ).toBeNull();
    expect(extUse([])).toBeNull();
  });
});

describe('byDistractorLevel (Tables 16/17)', () => {
  it('gives one cell per level with its ExtUse', () => {
    const levels = byDistractorLevel(HOLISTIC);
    expect(levels.map((level) => [level.level, level.n, level.cr, level.ext_use])).toEqual([
      [2, 2, 50, 2],
      [4, 3, 100, 1],
    ]);
    expect(levels[0]).toMatchObject({ e2: 50, e5: 50, e1: 0 });
  });
});

describe('toolExtraneousBlock (Table 1 Tool-Extraneous)', () => {
  it('averages the two halves, each pooled over levels, and keeps E2 per half', () => {
    const block = toolExtraneousBlock(HOLISTIC, STEP_WISE);
    // CR: holistic pooled 80, step-wise 50 → 65 (the level-mean reading would give (75 + 50)/2 = 62.5)
    expect(block.cr).toBeCloseTo(65, 12);
    // grade: holistic (1 + 0.4 + 1 + 1 + 1)/5 = 0.88; step-wise (1 + 1 + 0.6 + 0)/4 = 0.65 → 0.765
    expect(block.grade).toBeCloseTo(0.765, 12);
    // E2-H = holistic E2 = 1/5 = 20 %; E2-S = step-wise E2 = 1/4 = 25 %; E5 = (20 + 0)/2 = 10
    expect(block).toMatchObject({ e2_h: 20, e2_s: 25, e5: 10, e1: 0, n: 9, errors: 1, correct: 6 });
    expect(block).not.toHaveProperty('e2');
  });

  it('uses the half present when the other is missing', () => {
    const block = toolExtraneousBlock(HOLISTIC, []);
    expect(block).toMatchObject({ cr: 80, e2_h: 20, e2_s: null, n: 5 });
  });
});

describe('baseVsExtraneous (Table 2 / Table 18)', () => {
  it('takes CR_B on the matched base cases and CR_E pooled over the extraneous ones', () => {
    const base = [
      fakeRow({ id: 'b1', facets: { baseCaseKey: 'k1' } }),
      fakeRow({ id: 'b2', correct: false, grade: 0.2, facets: { baseCaseKey: 'k2' } }),
      fakeRow({ id: 'b3', facets: { baseCaseKey: 'k3' } }),
      fakeRow({ id: 'b4', facets: { baseCaseKey: 'k9-unrelated' } }),
    ];
    const half = baseVsExtraneous(base, HOLISTIC);
    // CR_B = 2/3 (k1, k2, k3; k9 is not a base of any extraneous case); CR_E = 80; Δ = 80 − 66.67
    expect(half).toMatchObject({ n_orig: 3, n_red: 5, tc: 3, cr_red: 80 });
    expect(half.cr_orig).toBeCloseTo(200 / 3, 12);
    expect(half.cr_delta).toBeCloseTo(80 - 200 / 3, 12);
    // grades: orig (1 + 0.2 + 1)/3 = 0.7333; red 0.88 → Δ 0.1467
    expect(half.grade_delta).toBeCloseTo(0.88 - 2.2 / 3, 12);
  });

  it('gives null CR_B and Δ without base rows; the pooled CR_E stays', () => {
    expect(baseVsExtraneous([], HOLISTIC)).toMatchObject({
      cr_orig: null,
      cr_red: null,
      cr_delta: null,
      n_orig: 0,
      n_pairs: 0,
      n_red_unmatched: 5,
      cr_red_pooled: 80,
    });
  });

  it('computes Δ over matched pairs only (hand count)', () => {
    // Base: k1 correct, k2 wrong, k3 correct; k4 has no variant. Variants: k1 ×2 (1 correct), k2 ×1 (correct),
    // k5 ×3 (all wrong, no base). Pairs {k1, k2}: CR_B = 1/2 = 50; CR_E = 2/3 = 66.67; Δ = +16.67.
    // Pooled CR_E = 2/6 = 33.33; the unpaired k5 variants would have made Δ = 33.33 − 66.67 (over k1..k3) = −33.33.
    const base = [
      fakeRow({ id: 'b1', facets: { baseCaseKey: 'k1' } }),
      fakeRow({ id: 'b2', correct: false, grade: 0.2, facets: { baseCaseKey: 'k2' } }),
      fakeRow({ id: 'b3', facets: { baseCaseKey: 'k3' } }),
      fakeRow({ id: 'b4', facets: { baseCaseKey: 'k4' } }),
    ];
    const variants = [
      ext('holistic_tool_extraneous', 2, 'k1'),
      ext('holistic_tool_extraneous', 4, 'k1', { correct: false, grade: 0.4 }),
      ext('holistic_tool_extraneous', 2, 'k2'),
      ...[2, 4, 6].map((level) =>
        ext('holistic_tool_extraneous', level, 'k5', { correct: false, grade: 0 }),
      ),
    ];
    const half = baseVsExtraneous(base, variants);
    expect(half).toMatchObject({
      n_pairs: 2,
      n_orig: 2,
      n_red: 3,
      n_red_unmatched: 3,
      n_red_pooled: 6,
    });
    expect(half.cr_orig).toBeCloseTo(50, 12);
    expect(half.cr_red).toBeCloseTo(200 / 3, 12);
    expect(half.cr_delta).toBeCloseTo(200 / 3 - 50, 12);
    expect(half.cr_red_pooled).toBeCloseTo(100 / 3, 12);
  });
});
