import { describe, expect, it } from 'vitest';
import { agreementReport } from '../judge/agreement.js';
import { calibrationSummary, type JudgedRow } from '../judge/calibration.js';
import { countContradictions } from '../judge/contradictions.js';
import type { HumanLabel } from '../judge/human-labels.js';
import type { Verdict } from '../judge/verdict.js';
import {
  agreementView,
  calibrationViews,
  contradictionsView,
  judgeSectionViews,
} from './judge-views.js';
import { sectionMarkdown } from './markdown.js';

const verdict = (correct: boolean, grade: Verdict['grade']): Verdict => ({
  kind: 'verdict',
  correct,
  grade,
  errors: [false, false, false, !correct, false, false],
  reasoning: '',
  notes: [],
});
const report = agreementReport([
  { caseKey: 'c1', split: 'holistic_planning', judge: 'A', outcome: verdict(false, 0.6) },
  { caseKey: 'c1', split: 'holistic_planning', judge: 'B', outcome: verdict(false, 0.4) },
  { caseKey: 'c2', split: 'holistic_planning', judge: 'A', outcome: verdict(true, 1) },
  { caseKey: 'c2', split: 'holistic_planning', judge: 'B', outcome: verdict(false, 0.6) },
]);

describe('agreementView', () => {
  it('gives α per split, κ per pair and the disagreements', () => {
    const text = sectionMarkdown(agreementView(report), 3);
    expect(text).toContain('### Judge agreement');
    expect(text).toContain('| holistic_planning | A | B | 2 | 50.0% | 0.000 |');
    expect(text).toContain('| c2 | correct | A: correct 1; B: incorrect 0.6 | 0.4 |');
    expect(text).toContain('Disagreements: 1 case(s)');
  });

  it('lists at most `limit` cases and says where the rest are', () => {
    const view = agreementView(report, 0);
    expect(view.tables).toHaveLength(2);
    expect(view.paragraphs[1]).toContain('all are in scores.json');
  });

  it('escapes untrusted ids so Markdown cannot grow HTML or new cells', () => {
    const hostile = agreementReport([
      {
        caseKey: '<img src=x onerror=alert(1)>|x',
        split: 'holistic_planning',
        judge: 'A',
        outcome: verdict(true, 1),
      },
      {
        caseKey: '<img src=x onerror=alert(1)>|x',
        split: 'holistic_planning',
        judge: 'B',
        outcome: verdict(false, 0.6),
      },
    ]);
    const text = sectionMarkdown(agreementView(hostile));
    expect(text).not.toContain('<img');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;\\|x');
  });
});

describe('contradictionsView', () => {
  it('gives counts per split and overall, codes by frequency, and a per-judge table for several judges', () => {
    const counts = countContradictions([
      {
        split: 'step_wise_tool_broken',
        contradictions: [{ code: 'broken-alter-is-replacement', message: '' }],
      },
      { split: 'step_wise_tool_broken', contradictions: [] },
    ]);
    const text = sectionMarkdown(
      contradictionsView({ ...counts, byJudge: { 'a:x': counts, 'b:y': counts } }),
    );
    expect(text).toContain(
      '| step_wise_tool_broken | 2 | 1 | 50.0% | broken-alter-is-replacement 1 |',
    );
    expect(text).toContain('| overall | 2 | 1 | 50.0% | broken-alter-is-replacement 1 |');
    expect(text).toContain('| a:x | 2 | 1 | 50.0% |');
  });

  it('is absent when scores.json has neither section', () => {
    expect(judgeSectionViews({})).toEqual([]);
    expect(judgeSectionViews({ agreement: report })[0]!.title).toBe('Judge agreement');
  });
});

const label = (
  id: string,
  correct: boolean,
  grade: number,
  extra: Partial<HumanLabel> = {},
): HumanLabel => ({
  id,
  tested_model: 'm',
  is_correct: correct,
  grade,
  error_list: correct ? [0, 0, 0, 0, 0, 0] : [0, 0, 0, 1, 0, 0],
  ...extra,
});
const row = (
  id: string,
  correct: boolean | null,
  grade = correct ? 1 : 0.6,
  judge = 'J',
): JudgedRow => ({
  id,
  testedModel: 'm',
  judge,
  verdict:
    correct === null
      ? null
      : { correct, grade, errors: [false, false, false, !correct, false, false] },
});

describe('calibrationViews', () => {
  it('counts labels matching no judged row of any judge', () => {
    const summary = calibrationSummary(
      [row('a', true), row('b', null), row('c', false, 0.6, 'K')],
      [label('a', true, 1), label('b', false, 0.4), label('z', true, 1)],
    );
    expect(summary).toMatchObject({ labels: 3, unmatchedLabels: 1 });
    expect(
      summary.calibrations.map((entry) => [
        entry.judge,
        entry.compared,
        entry.unjudged,
        entry.unmatched,
        entry.labelsNotCompared,
      ]),
    ).toEqual([
      ['J', 1, 1, 0, 2],
      ['K', 0, 0, 1, 3],
    ]);
  });

  it('gives Table 7, Table 8 and a Table 9 per judge; undefined ratios as –', () => {
    // J: a TP (1 vs 1), b TN (0.6 vs 0.4) → agreement 100%, precision 100%, recall 100%, F1 1, MAE 0.1, Err-Type 100%.
    const text = calibrationViews(
      calibrationSummary(
        [row('a', true), row('b', false)],
        [label('a', true, 1, { correct_but_different: true }), label('b', false, 0.4)],
      ),
    )
      .map((view) => sectionMarkdown(view))
      .join('\n');
    expect(text).toContain('| J | 2 | 100.0% | 100.0% | 100.0% | 1.000 | 0.100 | 100.0% |');
    expect(text).toContain('| J | 1 | 100.0% | 0.000 | 0 | – | – | 0 |');
    expect(text).toContain('| m | 2 | 50.0% | 50.0% | 0.0 | 0.700 | 0.800 | +0.100 |');
  });

  it('says so when the run has no judged answer', () => {
    expect(
      calibrationViews(calibrationSummary([], [label('a', true, 1)]))[0]!.paragraphs.at(-1),
    ).toBe('No judged answer in the run.');
  });
});
