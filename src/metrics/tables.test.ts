import { describe, expect, it } from 'vitest';
import type { SplitName } from '../dataset/case.js';
import { noFindings } from '../judge/checks/findings.js';
import { fakeRow, flags } from './fake-rows.fixture.js';
import type { ResultRow } from './result-row.js';
import { computeTables, groupByModelJudge, latestRows } from './tables.js';

const row = (
  model: string,
  split: SplitName,
  id: string,
  overrides: Partial<ResultRow> = {},
  facets: Partial<ResultRow['facets']> = {},
) => fakeRow({ model, id, ...overrides, facets: { split, ...facets } });

// Two models under one judge, plus model a refined (critic+) on one holistic case.
const ROWS: ResultRow[] = [
  row('a', 'holistic_planning', 'h1', {}, { baseCaseKey: 'k1' }),
  row(
    'a',
    'holistic_planning',
    'h2',
    { correct: false, grade: 0.4, errors: flags('E2') },
    { baseCaseKey: 'k2' },
  ),
  row(
    'a',
    'holistic_tool_extraneous',
    'x1',
    { findings: noFindings({ distractorUse: { names: ['d'], count: 1 } }) },
    { baseCaseKey: 'k1', distractorLevel: 2 },
  ),
  row(
    'a',
    'holistic_tool_extraneous',
    'x2',
    {
      correct: false,
      grade: 0.2,
      findings: noFindings({ distractorUse: { names: ['d'], count: 2 } }),
    },
    { baseCaseKey: 'k2', distractorLevel: 4 },
  ),
  row('a', 'step_wise_planning', 's1', {}, { horizon: 1 }),
  row('a', 'step_wise_planning', 's1', { repeat: 1, correct: false, grade: 0.6 }, { horizon: 1 }),
  row(
    'a',
    'holistic_planning',
    'h2',
    { refinement: { mode: 'critic', taxonomy: true, critic: 'c' } },
    { baseCaseKey: 'k2' },
  ),
  row('b', 'holistic_planning', 'h1', { correct: false }, { baseCaseKey: 'k1' }),
  row('b', 'holistic_planning', 'h2', { plannerStatus: 'parse_error' }, { baseCaseKey: 'k2' }),
];

describe('groupByModelJudge', () => {
  it('keeps first-seen order and separates judges', () => {
    const groups = groupByModelJudge([...ROWS, fakeRow({ model: 'a', judge: 'other' })]);
    expect(groups.map((group) => [group.model, group.judge, group.rows.length])).toEqual([
      ['a', 'judge-x', 7],
      ['b', 'judge-x', 2],
      ['a', 'other', 1],
    ]);
  });
});

describe('computeTables', () => {
  const tables = computeTables(ROWS);

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(tables))).toEqual(tables);
  });

  it('fills Table 1 from unrefined rows only', () => {
    expect(tables.table1.map((entry) => entry.model)).toEqual(['a', 'b']);
    // a holistic: h1 right, h2 wrong (the refined h2 is not counted here)
    expect(tables.table1[0]!.holistic).toMatchObject({ n: 2, cr: 50, e2: 50 });
    // b holistic: h1 wrong, h2 unreadable → 0 %, one parse error counted beside it
    expect(tables.table1[1]!.holistic).toMatchObject({ n: 2, cr: 0, parse_errors: 1 });
    // a tool-extraneous: holistic half only, pooled 1/2
    expect(tables.table1[0]!.tool_extraneous).toMatchObject({ n: 2, cr: 50, e2_s: null });
  });

  it('fills Tables 2, 17 and 18 from the extraneous rows and their base cases', () => {
    expect(tables.table2).toHaveLength(1);
    // TC = 1 + 2; CR_B over h1, h2 = 50; CR_E = 50; Δ = 0
    expect(tables.table2[0]).toMatchObject({
      model: 'a',
      judge: 'judge-x',
      holistic: { tc: 3, cr_b: 50, cr_e: 50, delta: 0, n_b: 2, n_e: 2 },
    });
    expect(tables.table2[0]!.step_wise).toMatchObject({ tc: null, cr_e: null, n_e: 0 });
    expect(
      tables.table17.map((level) => [level.model, level.level, level.ext_use, level.cr]),
    ).toEqual([
      ['a', 2, 1, 100],
      ['a', 4, 2, 0],
    ]);
    expect(tables.table18[0]!.holistic).toMatchObject({ cr_orig: 50, cr_red: 50 });
    expect(tables.table16).toEqual([]);
  });

  it('puts refined rows in Table 4 against the same cases unrefined', () => {
    expect(tables.table4).toHaveLength(1);
    // h2: wrong before (the unrefined row), right after: one flip to correct; McNemar on (1, 0) = 2 · ½ = 1
    expect(tables.table4[0]).toMatchObject({
      model: 'a',
      judge: 'judge-x',
      mode: 'critic',
      taxonomy: true,
      critic: 'c',
      regime: 'holistic',
      split: 'holistic_planning',
      base_cr: 0,
      refined_cr: 100,
      delta: 100,
      n: 1,
      flips: { to_correct: 1, to_incorrect: 0 },
      p_value: 1,
    });
    expect(tables.table4_overcorrections).toEqual([]);
  });

  it('labels breakdown rows with model and judge', () => {
    expect(tables.table12.map((entry) => [entry.model, entry.steps_range, entry.n])).toEqual([
      ['a', '1-5', 2],
      ['b', '1-5', 2],
    ]);
    expect(tables.table14).toEqual([
      expect.objectContaining({ model: 'a', horizon: 1, n: 2, cr: 50 }),
    ]);
    expect(tables.table5).toEqual([]);
  });

  it('reports error incidence by setting and by model', () => {
    expect(
      tables.error_incidence.by_setting.map((entry) => [entry.model, entry.setting, entry.n]),
    ).toEqual([
      ['a', 'holistic_planning', 2],
      ['a', 'holistic_tool_extraneous', 2],
      ['a', 'step_wise_planning', 2],
      ['b', 'holistic_planning', 2],
    ]);
    expect(tables.error_incidence.by_model[0]).toMatchObject({
      model: 'a',
      n: 4,
      counts: { e2: 1 },
    });
  });

  it('reports pass@k over repeats and paired comparisons between models', () => {
    // a step-wise s1: 2 repeats, 1 correct → pass@1 50, pass@2 100, pass^2 0
    expect(tables.repeats).toEqual([
      expect.objectContaining({ model: 'a', split: 'step_wise_planning', k: 1, pass_at_k: 50 }),
      expect.objectContaining({
        model: 'a',
        split: 'step_wise_planning',
        k: 2,
        pass_at_k: 100,
        pass_hat_k: 0,
      }),
    ]);
    // holistic_planning: a right on h1 where b is wrong; both wrong on h2
    expect(tables.paired).toEqual([
      expect.objectContaining({
        split: 'holistic_planning',
        a: 'a',
        b: 'b',
        shared: 2,
        a_only: 1,
        b_only: 0,
      }),
    ]);
    expect(computeTables(ROWS, { pairwise: false }).paired).toEqual([]);
  });
});

describe('latestRows', () => {
  it('keeps the last line of a repeated (model, judge, split, id, repeat) at the first one’s place', () => {
    const first = row('a', 'holistic_planning', 'h1', { correct: false });
    const rerun = row('a', 'holistic_planning', 'h1');
    const other = row('b', 'holistic_planning', 'h1');
    expect(latestRows([first, other, rerun])).toEqual([rerun, other]);
    const tables = computeTables([first, other, rerun]);
    expect(tables.table1[0]!.holistic).toMatchObject({ n: 1, cr: 100 });
    expect(tables.input).toEqual({ rows: 3, duplicates_dropped: 1 });
  });
});
