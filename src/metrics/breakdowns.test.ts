import { describe, expect, it } from 'vitest';
import { byHorizon, byModality, byStage, byStepRange, stepRangeOf } from './breakdowns.js';
import { fakeRow, flags } from './fake-rows.fixture.js';

describe('stepRangeOf', () => {
  it.each([
    [0, '1-5'],
    [1, '1-5'],
    [5, '1-5'],
    [6, '6-10'],
    [10, '6-10'],
    [11, '11-15'],
    [16, '16-20'],
    [20, '16-20'],
    [21, '>20'],
  ] as const)('%i steps → %s', (steps, range) => {
    expect(stepRangeOf(steps)).toBe(range);
  });
});

describe('byStepRange (Table 12)', () => {
  it('buckets by reference steps in paper order and prints error counts', () => {
    const rows = [
      fakeRow({ id: 'a', facets: { referenceSteps: 12 } }),
      fakeRow({
        id: 'b',
        correct: false,
        grade: 0.4,
        errors: flags('E3', 'E4'),
        facets: { referenceSteps: 14 },
      }),
      fakeRow({
        id: 'c',
        correct: false,
        grade: 0.2,
        errors: flags('E3'),
        facets: { referenceSteps: 3 },
      }),
    ];
    const table = byStepRange(rows);
    expect(table.map((row) => row.steps_range)).toEqual(['1-5', '11-15']);
    expect(table[1]).toMatchObject({ n: 2, cr: 50, e3_n: 1, e4_n: 1, e1_n: 0, e3: 50 });
    expect(table[1]!.grade).toBeCloseTo(0.7, 12);
    expect(table[0]).toMatchObject({ n: 1, cr: 0, e3_n: 1 });
  });
});

describe('byModality / byHorizon / byStage (Tables 13–15)', () => {
  it('keeps the paper order and only the values present', () => {
    const rows = [
      fakeRow({ id: 'v', facets: { modality: 'video' } }),
      fakeRow({ id: 't', correct: false, facets: { modality: 'text' } }),
    ];
    expect(byModality(rows).map((row) => [row.modality, row.cr])).toEqual([
      ['text', 0],
      ['video', 100],
    ]);
  });

  it('groups step-wise rows by horizon and stage, a missing value as its own row', () => {
    const step = (horizon: 1 | 2 | 3, stage: 'early' | 'late' | null, correct = true) =>
      fakeRow({ correct, facets: { split: 'step_wise_planning', horizon, stage } });
    const rows = [step(3, 'late'), step(1, 'early', false), step(1, null)];
    expect(byHorizon(rows).map((row) => [row.horizon, row.n, row.cr])).toEqual([
      [1, 2, 50],
      [3, 1, 100],
    ]);
    expect(byStage(rows).map((row) => [row.stage, row.n])).toEqual([
      ['early', 1],
      ['late', 1],
      [null, 1],
    ]);
  });
});
