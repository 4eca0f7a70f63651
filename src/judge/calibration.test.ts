import { describe, expect, it } from 'vitest';
import {
  calibrate,
  judgedRowFromLine,
  type JudgedRow,
  type JudgementLineKeys,
} from './calibration.js';
import type { HumanLabel } from './human-labels.js';

const bits = (...on: number[]) =>
  [1, 2, 3, 4, 5, 6].map((n) => (on.includes(n) ? 1 : 0)) as (0 | 1)[];
const label = (
  id: string,
  model: string,
  correct: boolean,
  grade: number,
  errors: (0 | 1)[] = bits(),
  cbd?: boolean,
): HumanLabel => ({
  id,
  tested_model: model,
  is_correct: correct,
  grade,
  error_list: errors,
  ...(cbd === undefined ? {} : { correct_but_different: cbd }),
});
const row = (id: string, model: string, verdict: JudgedRow['verdict'], judge = 'J'): JudgedRow => ({
  id,
  testedModel: model,
  judge,
  verdict,
});
const v = (correct: boolean, grade: number, errors: (0 | 1)[] = bits()) => ({
  correct,
  grade,
  errors: errors.map((flag) => flag === 1),
});

const LABELS = [
  label('1', 'M1', true, 1, bits(), false),
  label('2', 'M1', true, 1, bits(), true),
  label('3', 'M1', false, 0.6, bits(3)),
  label('4', 'M1', false, 0.2, bits(1, 4)),
  label('1', 'M2', true, 1),
  label('2', 'M2', false, 0.4, bits(2)),
];
const ROWS = [
  row('1', 'M1', v(true, 1)), // TP, |Δgrade| 0, flags 6/6
  row('2', 'M1', v(false, 0.8, bits(5))), // FN, 0.2, 5/6
  row('3', 'M1', v(true, 1)), // FP, 0.4, 5/6 (E3)
  row('4', 'M1', v(false, 0.2, bits(1))), // TN, 0, 5/6 (E4)
  row('1', 'M2', v(true, 1)), // TP, 0, 6/6
  row('2', 'M2', null), // unjudged
  row('9', 'M1', v(true, 1)), // no label
];

describe('calibrate', () => {
  const [result] = calibrate(ROWS, LABELS);

  it('counts what could be compared', () => {
    expect(result).toMatchObject({
      judge: 'J',
      compared: 5,
      unjudged: 1,
      unmatched: 1,
      labelsNotCompared: 1,
    });
  });

  it('Table 7 matches the hand computation', () => {
    const table = result!.table7;
    expect(table.confusion).toEqual({
      truePositive: 2,
      falsePositive: 1,
      falseNegative: 1,
      trueNegative: 1,
    });
    expect(table.agreement).toBeCloseTo(60, 10); // (TP + TN)/n = 3/5
    expect(table.precision).toBeCloseTo(200 / 3, 10); // TP/(TP + FP) = 2/3
    expect(table.recall).toBeCloseTo(200 / 3, 10); // TP/(TP + FN) = 2/3
    expect(table.f1).toBeCloseTo(2 / 3, 10); // 2PR/(P + R) with P = R = 2/3
    expect(table.gradeMae).toBeCloseTo(0.12, 10); // (0 + 0.2 + 0.4 + 0 + 0)/5
    expect(table.errorTypeAgreement).toBeCloseTo(40, 10); // exact E1–E6 match: rows 1/M1 and 1/M2 of 5
    expect(table.flagAgreement).toBeCloseTo(90, 10); // per flag: (6 + 5 + 5 + 5 + 6)/30
  });

  it('Table 8 splits the human-correct rows by correct_but_different', () => {
    // correct but different: row 2/M1 (judge says incorrect, |Δ| 0.2); standard: row 1/M1 (agrees,
    // |Δ| 0); 1/M2 has no flag
    expect(result!.table8.correctButDifferent).toMatchObject({ n: 1, agreement: 0 });
    expect(result!.table8.correctButDifferent.gradeMae).toBeCloseTo(0.2, 10);
    expect(result!.table8.standardCorrect).toEqual({ n: 1, agreement: 100, gradeMae: 0 });
    expect(result!.table8.unlabelled).toBe(1);
  });

  it('Table 9 gives per-model rates, grades and bias = judge − human', () => {
    const [m1, m2] = result!.table9;
    // M1: human CR 2/4 = 50 %, judge CR 2/4 = 50 %; human grade (1 + 1 + 0.6 + 0.2)/4 = 0.7, judge
    // (1 + 0.8 + 1 + 0.2)/4 = 0.75
    expect(m1).toMatchObject({ testedModel: 'M1', n: 4, humanCr: 50, judgeCr: 50, crBias: 0 });
    expect(m1!.humanGrade).toBeCloseTo(0.7, 10);
    expect(m1!.judgeGrade).toBeCloseTo(0.75, 10);
    expect(m1!.gradeBias).toBeCloseTo(0.05, 10);
    expect(m2).toMatchObject({
      testedModel: 'M2',
      n: 1,
      humanCr: 100,
      judgeCr: 100,
      crBias: 0,
      gradeBias: 0,
    });
  });

  it('gives undefined ratios (null) rather than zeros when nothing is compared', () => {
    const [empty] = calibrate([row('1', 'M1', null)], LABELS);
    expect(empty!.table7).toMatchObject({
      n: 0,
      agreement: null,
      precision: null,
      recall: null,
      f1: null,
      gradeMae: null,
      errorTypeAgreement: null,
      flagAgreement: null,
    });
    expect(empty!.table9).toEqual([]);
  });

  it('calibrates each judge separately', () => {
    expect(
      calibrate([...ROWS, row('1', 'M1', v(false, 0.4, bits(1)), 'K')], LABELS).map((entry) => [
        entry.judge,
        entry.compared,
      ]),
    ).toEqual([
      ['J', 5],
      ['K', 1],
    ]);
  });
});

describe('judgedRowFromLine', () => {
  const line = (
    status: 'ok' | 'judge_error' | null,
    judgement: JudgementLineKeys['judgement'],
  ): JudgementLineKeys => ({
    id: 12,
    tested_model: 'M',
    judge_model: 'J',
    judgement,
    ...(status ? { apb: { status } } : {}),
  });

  it('maps a judgement line, and a judge error to no verdict', () => {
    const ok = line('ok', { is_correct: false, grade: 0.4, error_list: [0, 0, 1, 0, 0, 0] });
    expect(judgedRowFromLine(ok)).toEqual({
      id: '12',
      testedModel: 'M',
      judge: 'J',
      verdict: { correct: false, grade: 0.4, errors: [false, false, true, false, false, false] },
    });
    expect(
      judgedRowFromLine(line('judge_error', { is_correct: false, grade: null })).verdict,
    ).toBeNull();
  });

  it('reads an official-harness line (no apb) and rejects a string is_correct', () => {
    expect(
      judgedRowFromLine(line(null, { is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0] }))
        .verdict,
    ).toMatchObject({ correct: true });
    expect(judgedRowFromLine(line(null, { is_correct: 'false', grade: 1 })).verdict).toBeNull();
  });
});
