import { describe, expect, it } from 'vitest';
import { correctnessRate } from './correctness-rate.js';
import { errorDistribution, errorRates } from './error-incidence.js';
import { fakeRow, flags } from './fake-rows.fixture.js';
import { planGrade } from './plan-grade.js';
import { meanOfCells, summarize } from './summary.js';

// Ten holistic cases, hand-tallied:
//   6 correct (grade 1), 1 wrong with E2+E4 (grade 0.4), 1 wrong with E4 (grade 0.6),
//   1 planner error (grade 0), 1 parse error (grade 0), … and, separately, judge errors below.
const TEN = [
  ...Array.from({ length: 6 }, (_, index) => fakeRow({ id: `ok${index}` })),
  fakeRow({ id: 'w1', correct: false, grade: 0.4, errors: flags('E2', 'E4') }),
  fakeRow({ id: 'w2', correct: false, grade: 0.6, errors: flags('E4') }),
  fakeRow({ id: 'pe', plannerStatus: 'error' }),
  fakeRow({ id: 'pp', plannerStatus: 'parse_error' }),
];
const JUDGE_ERROR = fakeRow({ id: 'je', judgeStatus: 'judge_error' });

describe('correctnessRate', () => {
  it('counts every case; failures are not correct and are counted beside the rate', () => {
    // 6 correct of 11 cases (10 + one judge error)
    const rate = correctnessRate([...TEN, JUDGE_ERROR]);
    expect(rate).toMatchObject({ n: 11, correct: 6, errors: 1, parse_errors: 1, judge_errors: 1 });
    expect(rate.cr).toBeCloseTo((100 * 6) / 11, 12);
    expect(rate.cr_ci).not.toBeNull();
  });

  it('never counts a failed row as correct even if its flag says so', () => {
    expect(correctnessRate([fakeRow({ correct: true, plannerStatus: 'error' })]).cr).toBe(0);
  });

  it('is null for an empty group', () => {
    expect(correctnessRate([])).toMatchObject({ n: 0, cr: null, cr_ci: null });
  });
});

describe('planGrade', () => {
  it('averages the rows with a grade; judge errors (grade null) are left out', () => {
    // (6·1 + 0.4 + 0.6 + 0 + 0) / 10 = 0.7; the judge error adds nothing
    expect(planGrade([...TEN, JUDGE_ERROR])).toEqual({
      grade: expect.closeTo(0.7, 12),
      graded: 10,
    });
    expect(planGrade([JUDGE_ERROR])).toEqual({ grade: null, graded: 0 });
  });
});

describe('errorRates / errorDistribution', () => {
  it('divides by every case of the group', () => {
    // E2: 1 of 11 = 9.09 %; E4: 2 of 11 = 18.18 %
    const rates = errorRates([...TEN, JUDGE_ERROR]);
    expect(rates.e2).toBeCloseTo(100 / 11, 12);
    expect(rates.e4).toBeCloseTo(200 / 11, 12);
    expect(rates.e1).toBe(0);
  });

  it('gives each error its share of all flags', () => {
    // 3 flags: E2 once, E4 twice → shares 33.3 / 66.7; 2 flagged cases
    const distribution = errorDistribution(TEN);
    expect(distribution).toMatchObject({ n: 10, flagged: 2, counts: { e2: 1, e4: 2 } });
    expect(distribution.shares.e2! + distribution.shares.e4!).toBeCloseTo(100, 12);
    expect(distribution.shares.e4).toBeCloseTo(200 / 3, 12);
    expect(errorDistribution([fakeRow()]).shares.e1).toBeNull();
  });
});

describe('meanOfCells (the paper composite)', () => {
  it('averages strata rates unweighted, sums counts, and leaves out empty strata', () => {
    // stratum A: 4 cases, 3 correct (75 %), grades 1,1,1,0.6 (0.9), one E4 (25 %)
    // stratum B: 2 cases, 1 correct (50 %), grades 1,0.2 (0.6), one E4 (50 %), one judge error elsewhere → none here
    const a = summarize([
      fakeRow(),
      fakeRow(),
      fakeRow(),
      fakeRow({ correct: false, grade: 0.6, errors: flags('E4') }),
    ]);
    const b = summarize([fakeRow(), fakeRow({ correct: false, grade: 0.2, errors: flags('E4') })]);
    const composite = meanOfCells([a, b, summarize([])]);
    // CR (75 + 50)/2 = 62.5, not the pooled 4/6 = 66.7; grade (0.9 + 0.6)/2 = 0.75; E4 (25 + 50)/2 = 37.5
    expect(composite).toMatchObject({
      n: 6,
      correct: 4,
      graded: 6,
      errors: 0,
      cr: 62.5,
      e4: 37.5,
      e1: 0,
    });
    expect(composite.grade).toBeCloseTo(0.75, 12);
    // Kish n_eff = 1 / (0.25/4 + 0.25/2) = 5.333 → Wilson at 62.5 % = [25.506, 89.027]
    expect(composite.cr_ci!.lo).toBeCloseTo(25.506, 3);
  });

  it('is an empty cell when no stratum has rows', () => {
    expect(meanOfCells([summarize([])])).toMatchObject({
      n: 0,
      cr: null,
      grade: null,
      e1: null,
      cr_ci: null,
    });
  });
});
