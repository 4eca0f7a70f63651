import { describe, expect, it } from 'vitest';
import type { UnsolvableType } from '../dataset/case.js';
import type { BrokenBehavior } from '../judge/verdict.js';
import { brokenToolBlock } from './broken-tool-behaviour.js';
import { fakeRow, flags } from './fake-rows.fixture.js';
import { unsolvableBlock } from './refusal-rate.js';
import type { ResultRow } from './result-row.js';
import { stepWiseBlock, table1Row } from './table1.js';

const step = (horizon: 1 | 2 | 3, id: string, overrides: Partial<ResultRow> = {}) =>
  fakeRow({ id, ...overrides, facets: { split: 'step_wise_planning', horizon } });

describe('stepWiseBlock (Table 1 step-wise = mean over horizons)', () => {
  // H1: 4 cases, 3 correct (75 %), grades 1,1,1,0.6 → 0.9, E4 1/4 = 25 %
  // H2: 2 cases, 1 correct (50 %), grades 1,0.2 → 0.6, E4 1/2 = 50 %; H3 absent
  const rows = [
    step(1, 'a'),
    step(1, 'b'),
    step(1, 'c'),
    step(1, 'd', { correct: false, grade: 0.6, errors: flags('E4') }),
    step(2, 'a'),
    step(2, 'b', { correct: false, grade: 0.2, errors: flags('E4', 'E2') }),
  ];

  it('averages the horizons present, unweighted', () => {
    const block = stepWiseBlock(rows);
    // CR (75 + 50)/2 = 62.5 (pooled would be 4/6 = 66.7); grade (0.9 + 0.6)/2 = 0.75; E4 37.5; E2 (0 + 50)/2 = 25
    expect(block).toMatchObject({ cr: 62.5, e4: 37.5, e2: 25, n: 6, horizons: [1, 2] });
    expect(block.grade).toBeCloseTo(0.75, 12);
  });

  it('reproduces the audit example: Claude (87.00 + 81.33 + 63.67)/3 = 77.3', () => {
    const make = (horizon: 1 | 2 | 3, correct: number) =>
      Array.from({ length: 300 }, (_, index) =>
        step(horizon, `${horizon}-${index}`, { correct: index < correct }),
      );
    const block = stepWiseBlock([...make(1, 261), ...make(2, 244), ...make(3, 191)]);
    expect(block.cr).toBeCloseTo((261 + 244 + 191) / 9, 12);
    expect(Math.round(block.cr! * 10) / 10).toBe(77.3);
  });
});

describe('brokenToolBlock (Table 1 Tool-Broken)', () => {
  it('gives five shares over all cases that sum to 100, behaviour-less rows under other', () => {
    const broken = (behavior: BrokenBehavior | null, overrides: Partial<ResultRow> = {}) =>
      fakeRow({ behavior, ...overrides, facets: { split: 'step_wise_tool_broken' } });
    // 3 replace, 1 alter, 1 judge error (no behaviour), 1 planner error (no behaviour) → 50 / 16.7 / 0 / 0 / 33.3
    const block = brokenToolBlock([
      broken('replace'),
      broken('replace'),
      broken('replace'),
      broken('alter'),
      broken(null, { judgeStatus: 'judge_error' }),
      broken(null, { plannerStatus: 'error' }),
    ]);
    expect(block).toMatchObject({
      replace: 50,
      retry: 0,
      refuse: 0,
      n: 6,
      unclassified: 2,
      errors: 1,
      judge_errors: 1,
    });
    expect(block.alter).toBeCloseTo(100 / 6, 12);
    expect(block.other).toBeCloseTo(200 / 6, 12);
    expect(block.replace! + block.alter! + block.retry! + block.refuse! + block.other!).toBeCloseTo(
      100,
      12,
    );
  });

  it('is null shares for no rows', () => {
    expect(brokenToolBlock([])).toMatchObject({ n: 0, replace: null, other: null });
  });
});

describe('unsolvableBlock (Table 1 Unsolvable)', () => {
  it('gives the pass rate per type over every case of the type', () => {
    const unsolvable = (
      type: UnsolvableType,
      correct: boolean,
      overrides: Partial<ResultRow> = {},
    ) =>
      fakeRow({
        correct,
        refused: correct,
        ...overrides,
        facets: { split: 'holistic_unsolvable', unsolvableType: type },
      });
    // conf 1/2 = 50; info 0/1 = 0; tool none → null; vis 3 passes of 4 (one judge error) = 75
    const block = unsolvableBlock([
      unsolvable('contradictory_constraints', true),
      unsolvable('contradictory_constraints', false),
      unsolvable('information_missing', false),
      unsolvable('visual_missing', true),
      unsolvable('visual_missing', true),
      unsolvable('visual_missing', true),
      unsolvable('visual_missing', false, {
        judgeStatus: 'judge_error',
        refused: null,
        grade: null,
      }),
    ]);
    expect(block).toMatchObject({
      conf: 50,
      info: 0,
      tool: null,
      vis: 75,
      n: 7,
      passed: 4,
      judge_errors: 1,
      untyped: 0,
    });
    expect(block.n_by_type).toEqual({ conf: 2, info: 1, tool: 0, vis: 4 });
    // refused share over rows that say: 4 of 6
    expect(block.refused).toBeCloseTo(400 / 6, 12);
    expect(block.ci_by_type.tool).toBeNull();
  });
});

describe('table1Row', () => {
  it('has the CONTRACT.md keys and reads each block from its split', () => {
    const row = table1Row('m', 'j', [
      fakeRow(),
      fakeRow({ correct: false, errors: flags('E2') }),
      step(1, 's'),
    ]);
    expect(Object.keys(row)).toEqual([
      'model',
      'judge',
      'holistic',
      'step_wise',
      'tool_extraneous',
      'tool_broken',
      'unsolvable',
    ]);
    for (const key of ['cr', 'grade', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'n'])
      expect(row.holistic).toHaveProperty(key);
    for (const key of ['cr', 'grade', 'e1', 'e2_h', 'e2_s', 'e3', 'e4', 'e5', 'e6', 'n'])
      expect(row.tool_extraneous).toHaveProperty(key);
    for (const key of ['replace', 'alter', 'retry', 'refuse', 'other', 'n'])
      expect(row.tool_broken).toHaveProperty(key);
    for (const key of ['conf', 'info', 'tool', 'vis', 'n'])
      expect(row.unsolvable).toHaveProperty(key);
    expect(row.holistic).toMatchObject({ n: 2, cr: 50, e2: 50 });
    expect(row.step_wise).toMatchObject({ n: 1, cr: 100 });
    expect(row.tool_extraneous).toMatchObject({ n: 0, cr: null, e2_h: null });
  });
});
