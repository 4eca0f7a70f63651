import { describe, expect, it } from 'vitest';
import { fakeRow } from './fake-rows.fixture.js';
import { refinementRows } from './refinement.js';
import type { ResultRow, RowRefinement } from './result-row.js';

const CRITIC_PLUS: RowRefinement = { mode: 'critic', taxonomy: true, critic: 'anthropic:claude-sonnet-4-5' };
const SELF_MINUS: RowRefinement = { mode: 'self', taxonomy: false, critic: null };
const holistic = (id: string, correct: boolean, refinement: RowRefinement | null = null) => fakeRow({ id, correct, refinement });
const stepWise = (id: string, correct: boolean, refinement: RowRefinement | null = null) =>
  fakeRow({ id, correct, refinement, facets: { split: 'step_wise_planning' } });

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

  it('compares each method with the base on the same cases', () => {
    const [critic, self] = refinementRows(rows);
    // critic+ holistic: base over h1..h4 = 1/4 = 25 (h5 not refined, left out); refined 3/4 = 75; Δ = +50
    expect(critic).toMatchObject({ mode: 'critic', taxonomy: true, critic: 'anthropic:claude-sonnet-4-5' });
    expect(critic!.holistic).toMatchObject({ base: 25, refined: 75, delta: 50, n_base: 4, n_refined: 4 });
    expect(critic!.holistic!.paired).toMatchObject({ a_only: 2, b_only: 0 });
    // critic+ step-wise: base 2/2 = 100, refined 1/2 = 50 → Δ −50
    expect(critic!.step_wise).toMatchObject({ base: 100, refined: 50, delta: -50 });
    // self−: holistic base 1/2 = 50, refined 1/2 = 50; no step-wise refinement
    expect(self).toMatchObject({ mode: 'self', taxonomy: false, step_wise: null });
    expect(self!.holistic).toMatchObject({ base: 50, refined: 50, delta: 0 });
  });

  it('gives no row without refined rows', () => {
    expect(refinementRows([holistic('h1', true)])).toEqual([]);
  });
});
