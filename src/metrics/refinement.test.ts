import { describe, expect, it } from 'vitest';
import { fakeRow } from './fake-rows.fixture.js';
import { overCorrections, refinementRows } from './refinement.js';
import type { ResultRow, RowRefinement } from './result-row.js';

const CRITIC_PLUS: RowRefinement = {
  mode: 'critic',
  taxonomy: true,
  critic: 'anthropic:claude-sonnet-4-5',
};
const SELF_MINUS: RowRefinement = { mode: 'self', taxonomy: false, critic: null };
const holistic = (id: string, correct: boolean, refinement: RowRefinement | null = null) =>
  fakeRow({ id, correct, refinement });
const stepWise = (
  id: string,
  correct: boolean,
  refinement: RowRefinement | null = null,
  horizon: 1 | 2 | 3 = 1,
) => fakeRow({ id, correct, refinement, facets: { split: 'step_wise_planning', horizon } });
/** A refined row carrying its own initial verdict, as `apb refine` lines do. */
const withInitial = (row: ResultRow, correct: boolean, critiques: string[] = []): ResultRow => ({
  ...row,
  refinement: { ...row.refinement!, initial: { correct, grade: correct ? 1 : 0.4 }, critiques },
});

describe('refinementRows (Table 4)', () => {
  // Base: holistic h1..h4 with 1 correct (h1), plus h5 which was never refined; step-wise s1, s2 both correct.
  // Critic+ refined: h1..h4 → 3 correct; s1, s2 → 1 correct. Self− refined: h1, h2 → h1 only.
  const rows: ResultRow[] = [
    holistic('h1', true),
    holistic('h2', false),
    holistic('h3', false),
    holistic('h4', false),
    holistic('h5', true),
    stepWise('s1', true),
    stepWise('s2', true),
    holistic('h1', true, CRITIC_PLUS),
    holistic('h2', true, CRITIC_PLUS),
    holistic('h3', true, CRITIC_PLUS),
    holistic('h4', false, CRITIC_PLUS),
    stepWise('s1', false, CRITIC_PLUS),
    stepWise('s2', true, CRITIC_PLUS),
    holistic('h1', true, SELF_MINUS),
    holistic('h2', false, SELF_MINUS),
  ];

  it('compares each method with the base on the same cases: CR, Δ, flips both ways, exact McNemar p', () => {
    const [criticHolistic, criticStepWise, self, ...rest] = refinementRows(rows);
    expect(rest).toEqual([]);
    // critic+ holistic: base over h1..h4 = 1/4 = 25 (h5 not refined, left out); refined 3/4 = 75; Δ = +50;
    // flips: h2, h3 to correct, none to incorrect; p = 2 · P(X ≤ 0 | n = 2) = 2 · 1/4 = 0.5
    expect(criticHolistic).toMatchObject({
      mode: 'critic',
      taxonomy: true,
      critic: 'anthropic:claude-sonnet-4-5',
      rounds: 1,
      regime: 'holistic',
      split: 'holistic_planning',
    });
    expect(criticHolistic).toMatchObject({
      base_cr: 25,
      refined_cr: 75,
      delta: 50,
      n: 4,
      flips: { to_correct: 2, to_incorrect: 0 },
      p_value: 0.5,
      failed: 0,
      unpaired: 0,
    });
    // critic+ step-wise: base 2/2 = 100, refined 1/2 = 50 → Δ −50; s1 flips to incorrect; p = 1
    expect(criticStepWise).toMatchObject({
      regime: 'step_wise_next1',
      horizon: 1,
      split: 'step_wise_planning',
      base_cr: 100,
      refined_cr: 50,
      delta: -50,
      n: 2,
      flips: { to_correct: 0, to_incorrect: 1 },
      p_value: 1,
    });
    // self−: holistic base 1/2 = 50, refined 1/2 = 50; no step-wise refinement, so no step-wise row
    expect(self).toMatchObject({
      mode: 'self',
      taxonomy: false,
      regime: 'holistic',
      base_cr: 50,
      refined_cr: 50,
      delta: 0,
      n: 2,
      flips: { to_correct: 0, to_incorrect: 0 },
      p_value: 1,
    });
    expect(criticHolistic!.base_ci!.lo).toBeLessThan(25);
    expect(criticHolistic!.refined_ci!.hi).toBeGreaterThan(75);
  });

  it('takes the base from the initial verdict a refined line records, and counts a failed refinement as not correct', () => {
    const refined = [
      withInitial(holistic('a', true, CRITIC_PLUS), false),
      withInitial(holistic('b', true, CRITIC_PLUS), false),
      withInitial(holistic('c', true, CRITIC_PLUS), false),
      withInitial(holistic('d', true, CRITIC_PLUS), false),
      withInitial(holistic('e', true, CRITIC_PLUS), false),
      withInitial({ ...holistic('f', false, CRITIC_PLUS), plannerStatus: 'error' }, true, [
        'drop step 2',
      ]),
      withInitial(holistic('g', true, CRITIC_PLUS), true),
      holistic('orphan', true, CRITIC_PLUS),
    ];
    // Base 2/7 (f, g); refined 6/7 (a–e, g; f failed). Flips: 5 to correct, 1 to incorrect (f).
    // p = 2 · (C(6,0) + C(6,1)) / 2^6 = 2 · 7/64 = 0.21875
    const [row] = refinementRows(refined);
    expect(row).toMatchObject({
      n: 7,
      failed: 1,
      unpaired: 1,
      flips: { to_correct: 5, to_incorrect: 1 },
    });
    expect(row!.base_cr).toBeCloseTo((100 * 2) / 7, 10);
    expect(row!.refined_cr).toBeCloseTo((100 * 6) / 7, 10);
    expect(row!.delta).toBeCloseTo((100 * 4) / 7, 10);
    expect(row!.p_value).toBeCloseTo(0.21875, 12);
    expect(overCorrections(refined)).toEqual([
      {
        mode: 'critic',
        taxonomy: true,
        critic: 'anthropic:claude-sonnet-4-5',
        rounds: 1,
        split: 'holistic_planning',
        id: 'f',
        repeat: 0,
        base_grade: 1,
        refined_grade: 0,
        critiques: ['drop step 2'],
      },
    ]);
  });

  it('gives step-wise rows per horizon only (never pooled), and a row per other split under its own name', () => {
    const refined = [
      withInitial(stepWise('n1', true, SELF_MINUS, 1), false),
      withInitial(stepWise('n2', false, SELF_MINUS, 2), false),
      withInitial(
        fakeRow({
          id: 'x',
          correct: true,
          refinement: SELF_MINUS,
          facets: { split: 'holistic_tool_extraneous' },
        }),
        true,
      ),
    ];
    expect(
      refinementRows(refined).map((row) => [row.regime, row.horizon, row.n, row.refined_cr]),
    ).toEqual([
      ['holistic_tool_extraneous', null, 1, 100],
      ['step_wise_next1', 1, 1, 100],
      ['step_wise_next2', 2, 1, 0],
    ]);
  });

  it('keeps methods with different rounds apart, and gives no row without refined rows', () => {
    const rows2 = [
      withInitial(holistic('h1', true, SELF_MINUS), false),
      withInitial(holistic('h1', false, { ...SELF_MINUS, rounds: 2 }), false),
    ];
    expect(refinementRows(rows2).map((row) => [row.rounds, row.refined_cr])).toEqual([
      [1, 100],
      [2, 0],
    ]);
    expect(refinementRows([holistic('h1', true)])).toEqual([]);
  });
});
