import { describe, expect, it } from 'vitest';
import { compareMarkdown } from '../report/compare-markdown.js';
import { fakeRow } from './fake-rows.fixture.js';
import { mcnemarExact } from './paired.js';
import { compareRuns } from './run-comparison.js';

const holistic = (id: string, correct: boolean) => fakeRow({ id, correct });
const stepWise = (id: string, correct: boolean) =>
  fakeRow({ id, correct, facets: { split: 'step_wise_planning' } });

describe('compareRuns', () => {
  // Hand count: holistic h1 both right, h2 A only, h3 A only, h4 neither; step-wise s1 B only,
  // s2 both; h9 only in A (unshared). Overall: shared 6, both 2, A only 2, B only 1, neither 1.
  const a = [
    holistic('h1', true),
    holistic('h2', true),
    holistic('h3', true),
    holistic('h4', false),
    stepWise('s1', false),
    stepWise('s2', true),
    holistic('h9', true),
  ];
  const b = [
    holistic('h1', true),
    holistic('h2', false),
    holistic('h3', false),
    holistic('h4', false),
    stepWise('s1', true),
    stepWise('s2', true),
  ];
  const comparison = compareRuns({ label: 'runs/a', rows: a }, { label: 'runs/b', rows: b });

  it('counts the shared cases overall and per split by hand', () => {
    expect(comparison.overall).toMatchObject({
      shared: 6,
      both: 2,
      a_only: 2,
      b_only: 1,
      neither: 1,
    });
    expect(comparison.overall.p_value).toBeCloseTo(mcnemarExact(2, 1), 12);
    expect(comparison.overall.p_value).toBe(1); // 2 · P(X ≤ 1 | n = 3) = 2 · 4/8 capped at 1
    expect(comparison.splits.map(({ split }) => split)).toEqual([
      'holistic_planning',
      'step_wise_planning',
    ]);
    expect(comparison.splits[0]!.comparison).toMatchObject({ shared: 4, a_only: 2, b_only: 0 });
    expect(comparison.splits[0]!.comparison.p_value).toBeCloseTo(0.5, 12); // 2 · (1/2)^2
  });

  it('lists exactly the cases on which one side is right', () => {
    expect(
      comparison.differences.map((d) => `${d.split}/${d.id}:${d.a.correct}>${d.b.correct}`),
    ).toEqual([
      'holistic_planning/h2:true>false',
      'holistic_planning/h3:true>false',
      'step_wise_planning/s1:false>true',
    ]);
  });

  it('renders the table and the differences in Markdown', () => {
    const text = compareMarkdown(comparison);
    expect(text).toContain(
      '| all | 6 | 66.7 | 50.0 | 2 | 1 | 1.00 | not distinguishable at 95 % |',
    );
    expect(text).toContain(
      '| holistic_planning | h2 | 0 | correct (grade 1.0) | not correct (grade 0.0) |',
    );
    expect(text).toContain('## Cases on which they differ (3)');
  });
});
