import { describe, expect, it } from 'vitest';
import { calibrationRows, judgeSections, judgeViews } from './judge-sections.js';

type Loose = Record<string, unknown>;

const keys = (correct: boolean, grade = correct ? 1 : 0.6, extra: Loose = {}) => ({
  is_correct: correct,
  grade,
  error_list: correct ? [0, 0, 0, 0, 0, 0] : [0, 0, 0, 1, 0, 0],
  reasoning: 'r',
  ...extra,
});
const member = (judge: string, correct: boolean, extra: Loose = {}) => ({
  judge,
  kind: 'llm',
  status: 'ok',
  judgement: keys(correct),
  notes: [],
  ...extra,
});

/** A judgement line of `id` (holistic_planning unless told), judged by `judge`. */
function line(
  id: string,
  judge: string,
  correct: boolean,
  apb: Loose = {},
  extra: Loose = {},
): Loose {
  return {
    id,
    split: 'holistic_planning',
    tested_model: 'm',
    model_response: '',
    judge_model: judge,
    judgement: keys(correct),
    apb: { status: 'ok', prediction: { repeat: 0 }, ...apb },
    ...extra,
  };
}

// Members A = [F, T, T, T] and B = [F, F, T, T] on four cases: p_o = 3/4, p_e = 3/4·1/2 + 1/4·1/2 = 1/2 → κ = 0.5.
// α (nominal): 8 values, 5 T and 3 F; D_o = 2/8; D_e = 2·5·3/(8·7) = 30/56 → α = 1 − 0.25·56/30 = 0.5333…
const A = [false, true, true, true];
const B = [false, false, true, true];
const panelLines = A.map((a, index) =>
  line(`c${index + 1}`, 'panel(A+B)', a && B[index]!, {
    judges: [
      member(
        'A',
        a,
        index === 1
          ? { contradictions: [{ code: 'correct-with-distractor', message: 'm' }] }
          : { contradictions: [] },
      ),
      member('B', B[index]!, { contradictions: [] }),
    ],
    contradictions: [],
  }),
);

describe('judgeViews', () => {
  it("reads the line's own judgement and each member's, with one case key per answer", () => {
    const views = judgeViews([panelLines[0]!]);
    expect(views.map((view) => [view.judge, view.recorded, view.aggregate, view.caseKey])).toEqual([
      ['panel(A+B)', true, true, 'holistic_planning/c1 (m, repeat 0)'],
      ['A', false, false, 'holistic_planning/c1 (m, repeat 0)'],
      ['B', false, false, 'holistic_planning/c1 (m, repeat 0)'],
    ]);
  });

  it('makes a judge error, a string is_correct or an out-of-range grade no verdict', () => {
    const views = judgeViews([
      line('x', 'J', true, { status: 'judge_error' }),
      {
        ...line('y', 'J', true),
        judgement: { is_correct: 'true', grade: 1, error_list: [0, 0, 0, 0, 0, 0] },
      },
      {
        ...line('z', 'J', true),
        judgement: { is_correct: true, grade: 80, error_list: [0, 0, 0, 0, 0, 0] },
      },
    ]);
    expect(views.map((view) => view.outcome.kind)).toEqual(['unjudged', 'unjudged', 'unjudged']);
  });
});

describe('judgeSections', () => {
  it('computes κ per member pair and α from the panel members, with the disagreeing cases', () => {
    const { agreement } = judgeSections(panelLines);
    expect(agreement?.judges).toEqual(['A', 'B']);
    expect(agreement?.overall.pairs).toEqual([
      { judgeA: 'A', judgeB: 'B', n: 4, percentAgreement: 75, kappa: 0.5 },
    ]);
    expect(agreement?.overall.alphaCorrect.alpha).toBeCloseTo(1 - 0.25 / (30 / 56), 10);
    expect(agreement?.bySplit.holistic_planning?.pairs[0]?.kappa).toBe(0.5);
    expect(agreement?.disagreements).toEqual([
      {
        caseKey: 'holistic_planning/c2 (m, repeat 0)',
        split: 'holistic_planning',
        fields: ['correct'],
        votes: [
          { judge: 'A', correct: true, grade: 1 },
          { judge: 'B', correct: false, grade: 0.6 },
        ],
        unjudged: [],
        gradeSpread: 0.4,
      },
    ]);
  });

  it('counts a judge recorded twice for one answer (alone and in a panel) once', () => {
    const lines = [line('c1', 'A', false, { contradictions: [] }), ...panelLines];
    expect(judgeSections(lines).agreement?.overall.pairs[0]?.n).toBe(4);
    expect(calibrationRows(lines).filter((row) => row.judge === 'A')).toHaveLength(4);
  });

  it('has no agreement section with one judge, and no contradictions section when nothing was cross-checked', () => {
    expect(judgeSections([line('c1', 'rules', true), line('c2', 'rules', false)])).toEqual({});
  });

  it("counts contradictions of the recorded verdicts per split and overall, and each LLM judge's own", () => {
    const lines = [
      ...panelLines,
      line(
        's1',
        'X',
        true,
        { contradictions: [{ code: 'correct-wrong-step-count', message: 'm' }] },
        { split: 'step_wise_planning' },
      ),
    ];
    const { contradictions } = judgeSections(lines);
    expect(contradictions?.overall).toEqual({
      checked: 5,
      flagged: 1,
      byCode: { 'correct-wrong-step-count': 1 },
    });
    expect(contradictions?.bySplit.holistic_planning).toEqual({
      checked: 4,
      flagged: 0,
      byCode: {},
    });
    expect(Object.keys(contradictions?.byJudge ?? {})).toEqual(['A', 'B', 'X', 'panel(A+B)']);
    expect(contradictions?.byJudge.A?.overall).toEqual({
      checked: 4,
      flagged: 1,
      byCode: { 'correct-with-distractor': 1 },
    });
  });

  it('gives calibration rows for every judge, the panel aggregate included', () => {
    const rows = calibrationRows(panelLines);
    expect(new Set(rows.map((row) => row.judge))).toEqual(new Set(['panel(A+B)', 'A', 'B']));
    expect(rows.find((row) => row.judge === 'B' && row.id === 'c2')?.verdict).toMatchObject({
      correct: false,
      grade: 0.6,
    });
  });
});
