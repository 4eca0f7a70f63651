import { describe, expect, it } from 'vitest';
import { agreementReport, cohenKappa, krippendorffAlpha, type AgreementItem } from './agreement.js';
import type { Grade, JudgeOutcome } from './verdict.js';

describe('cohenKappa', () => {
  it('matches the hand computation', () => {
    // a = [x,x,y], b = [x,y,y]: p_o = 2/3; p_e = (2/3)(1/3) + (1/3)(2/3) = 4/9; κ = (2/3 − 4/9)/(1
    // − 4/9) = (2/9)/(5/9) = 0.4
    const result = cohenKappa(['x', 'x', 'y'], ['x', 'y', 'y']);
    expect(result.kappa).toBeCloseTo(0.4, 12);
    expect(result.observed).toBeCloseTo(2 / 3, 12);
    expect(result.expected).toBeCloseTo(4 / 9, 12);
  });

  it('is 1 for perfect agreement and negative below chance', () => {
    expect(cohenKappa([true, false], [true, false]).kappa).toBe(1);
    // a = [T,F], b = [F,T]: p_o = 0; p_e = 1/2·1/2 + 1/2·1/2 = 1/2; κ = (0 − 1/2)/(1/2) = −1
    expect(cohenKappa([true, false], [false, true]).kappa).toBe(-1);
  });

  it('is undefined (null) with no items or when chance agreement is 1', () => {
    expect(cohenKappa([], []).kappa).toBeNull();
    // both raters always say true: p_e = 1 → κ undefined, though raw agreement is 100 %
    expect(cohenKappa([true, true], [true, true])).toMatchObject({ kappa: null, observed: 1 });
  });
});

describe('krippendorffAlpha', () => {
  it('nominal, two coders: 4/9', () => {
    // units (a,a) (a,b) (b,b): n = 6; o_ab = o_ba = 1; n_a = n_b = 3
    // D_o = 2/6 = 1/3; D_e = (3·3 + 3·3)/(6·5) = 0.6; α = 1 − (1/3)/0.6 = 4/9
    expect(
      krippendorffAlpha(
        [
          ['a', 'a'],
          ['a', 'b'],
          ['b', 'b'],
        ],
        'nominal',
      ).alpha,
    ).toBeCloseTo(4 / 9, 12);
  });

  it('nominal, three coders with missing values: 0.5625', () => {
    // u1 (T,T,T): o_TT += 6 pairs × 1/2 = 3; u2 (T,F,–): o_TF = o_FT = 1; u3 (F,F,F): o_FF = 3; u4
    // (T,–,–) is not pairable
    // n = 8, n_T = n_F = 4; D_o = 2/8 = 0.25; D_e = (4·4 + 4·4)/(8·7) = 32/56; α = 1 − 0.25·56/32 = 1 − 0.4375 = 0.5625
    const result = krippendorffAlpha(
      [
        [true, true, true],
        [true, false, null],
        [false, false, false],
        [true, null, null],
      ],
      'nominal',
    );
    expect(result.alpha).toBeCloseTo(0.5625, 12);
    expect(result).toMatchObject({ pairable: 8, units: 4 });
  });

  it('interval on grades: 0.950495', () => {
    // units (1,1) (0.6,0.8) (0.2,0.2): n = 6; D_o = (2·0.2²)/6 = 0.08/6
    // unordered squared differences over all values {1,1,0.6,0.8,0.2,0.2}: 0.32 + 0.08 + 2.56 +
    // 0.04 + 0.32 + 0.72 = 4.04
    // D_e = 2·4.04/(6·5) = 8.08/30; α = 1 − (0.08/6)/(8.08/30) = 1 − 2.4/48.48 = 0.950495…
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [0.6, 0.8],
          [0.2, 0.2],
        ],
        'interval',
      ).alpha,
    ).toBeCloseTo(1 - 2.4 / 48.48, 10);
  });

  it('is undefined without pairable values or without any variation', () => {
    expect(krippendorffAlpha([[true, null]], 'nominal').alpha).toBeNull();
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1],
        ],
        'interval',
      ).alpha,
    ).toBeNull();
  });
});

describe('agreementReport', () => {
  const verdict = (correct: boolean, grade: Grade): JudgeOutcome => ({
    kind: 'verdict',
    correct,
    grade,
    errors: [!correct, false, false, false, false, false],
    reasoning: '',
    notes: [],
  });
  const item = (
    caseKey: string,
    split: string,
    judge: string,
    outcome: JudgeOutcome,
  ): AgreementItem => ({ caseKey, split, judge, outcome });
  const items: AgreementItem[] = [
    item('c1', 's1', 'A', verdict(true, 1)),
    item('c1', 's1', 'B', verdict(true, 1)),
    item('c2', 's1', 'A', verdict(true, 1)),
    item('c2', 's1', 'B', verdict(false, 0.6)),
    item('c3', 's1', 'A', verdict(false, 0.4)),
    item('c3', 's1', 'B', verdict(false, 0.2)),
    item('c4', 's2', 'A', verdict(true, 1)),
    item('c4', 's2', 'B', { kind: 'unjudged', reason: 'judge-parse-failure', message: 'm' }),
  ];

  it('computes κ per pair and α over judges, per split and overall', () => {
    const report = agreementReport(items);
    expect(report.judges).toEqual(['A', 'B']);
    // c4 has one verdict only: pairs over c1..c3, A = [T,T,F], B = [T,F,F] → κ = 0.4, agreement 2/3
    expect(report.overall.pairs).toHaveLength(1);
    expect(report.overall.pairs[0]).toMatchObject({ judgeA: 'A', judgeB: 'B', n: 3 });
    expect(report.overall.pairs[0]!.kappa).toBeCloseTo(0.4, 12);
    expect(report.overall.pairs[0]!.percentAgreement).toBeCloseTo(200 / 3, 10);
    // correctness units (T,T) (T,F) (F,F) (T,–) → α = 4/9 as above
    expect(report.overall.alphaCorrect.alpha).toBeCloseTo(4 / 9, 12);
    // grade units (1,1) (1,0.6) (0.4,0.2): D_o = (2·0.16 + 2·0.04)/6 = 0.4/6
    // unordered differences over {1,1,1,0.6,0.4,0.2}: 0.48 + 1.08 + 1.92 + 0.04 + 0.16 + 0.04 = 3.72 → D_e = 7.44/30
    // α = 1 − (0.4·30)/(6·7.44) = 1 − 12/44.64
    expect(report.overall.alphaGrade.alpha).toBeCloseTo(1 - 12 / 44.64, 10);
    expect(report.bySplit.s1!.pairs[0]!.kappa).toBeCloseTo(0.4, 12);
    expect(report.bySplit.s2).toMatchObject({
      cases: 1,
      pairs: [{ n: 0, kappa: null, percentAgreement: null }],
      alphaCorrect: { alpha: null },
    });
  });

  it('lists the disagreements', () => {
    const { disagreements } = agreementReport(items);
    expect(disagreements).toHaveLength(1);
    expect(disagreements[0]).toMatchObject({
      caseKey: 'c2',
      split: 's1',
      fields: ['correct'],
      unjudged: [],
    });
    expect(disagreements[0]!.gradeSpread).toBeCloseTo(0.4, 12);
  });

  it('does not count a field one judge leaves unstated as a disagreement', () => {
    const rules = { ...verdict(true, 1), refused: false } as JudgeOutcome;
    expect(
      agreementReport([item('c1', 's1', 'rules', rules), item('c1', 's1', 'llm', verdict(true, 1))])
        .disagreements,
    ).toEqual([]);
    const refusing = { ...verdict(true, 1), refused: true } as JudgeOutcome;
    expect(
      agreementReport([item('c1', 's1', 'rules', rules), item('c1', 's1', 'llm', refusing)])
        .disagreements[0]?.fields,
    ).toEqual(['refused']);
  });

  it('refuses a (case, judge) given twice', () => {
    expect(() => agreementReport([...items, item('c1', 's1', 'A', verdict(true, 1))])).toThrow(
      RangeError,
    );
  });
});
