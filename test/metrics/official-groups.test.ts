/**
 * Our `officialScores` against an independent Python re-implementation of the official scorer
 * (official_scorer.py), on judgement files full of odd values.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  officialScores,
  pythonTruthy,
  type OfficialScores,
} from '../../src/metrics/official-groups.js';
import { computeScores } from '../../src/pipeline/scores.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCORER = path.join(here, 'official_scorer.py');
const ODD = path.join(here, 'fixtures', 'official-odd.jsonl');
/** The bare scorer: every split counted, as the Python re-implementation does. */
const ALL = { allSplits: true };

function readLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function python(file: string, splits?: string[]): OfficialScores {
  const args = [SCORER, file, ...(splits ? ['--splits', splits.join(',')] : [])];
  return JSON.parse(execFileSync('python3', args, { encoding: 'utf8' })) as OfficialScores;
}

/**
 * Same group names, same record counts; rates equal to 12 digits (Python ≥ 3.12's sum() is
 * compensated, so the last bits may differ).
 */
function expectSameScores(ours: OfficialScores, theirs: OfficialScores) {
  expect(ours.total_records).toBe(theirs.total_records);
  expect(Object.keys(ours.groups).sort()).toEqual(Object.keys(theirs.groups).sort());
  for (const [name, group] of Object.entries(theirs.groups)) {
    const mine = ours.groups[name]!;
    expect(mine.records, name).toBe(group.records);
    for (const key of ['accuracy', 'average_grade'] as const) {
      if (group[key] === null) expect(mine[key], `${name}.${key}`).toBeNull();
      else expect(mine[key], `${name}.${key}`).toBeCloseTo(group[key], 12);
    }
  }
}

describe('officialScores = the Python re-implementation', () => {
  it('on the odd-values fixture', () => {
    expectSameScores(officialScores(readLines(ODD), ALL), python(ODD));
  });

  it('leaves out holistic_efficiency lines, which the official harness never produces (60 of 69 on the sample)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-official-'));
    const lines = readLines(ODD)
      .filter((line) => line.split !== 'holistic_efficiency')
      .slice(0, 20);
    const efficiency = lines.slice(0, 9).map((line) => ({ ...line, split: 'holistic_efficiency' }));
    const officialOnly = path.join(dir, 'official.jsonl');
    writeFileSync(officialOnly, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const ours = officialScores([...lines, ...efficiency]);
    expect(ours.total_records).toBe(lines.length);
    expect(ours.groups.holistic_efficiency).toBeUndefined();
    expectSameScores(ours, python(officialOnly));
  });

  it('with a --splits filter', () => {
    const splits = ['holistic_planning', 'step_wise_planning'];
    expectSameScores(officialScores(readLines(ODD), { splits, ...ALL }), python(ODD, splits));
  });

  it('on a generated file of 400 mixed lines', () => {
    const values = [true, false, 'false', 'true', 0, 1, null, '', 'yes', [], {}, [0]];
    const grades = [0, 0.2, 0.4, 0.6, 0.8, 1, 0.1, 0.7, true, false, null, '0.8', 1.5, -1];
    const splits = [
      'holistic_planning',
      'step_wise_planning',
      'holistic_unsolvable',
      'step_wise_tool_broken',
    ];
    const lines = Array.from({ length: 400 }, (_, index) => {
      const judgement: Record<string, unknown> = { grade: grades[(index * 7) % grades.length] };
      if (index % 11 !== 0) judgement.is_correct = values[(index * 5) % values.length];
      return {
        id: String(index % 90),
        split: splits[index % splits.length],
        planning_regime: index % 2 === 0 ? 'Holistic' : 'Step-wise',
        task_family: index % 13 === 0 ? null : `family-${index % 3}`,
        task_category:
          index % 17 === 0 ? splits[(index + 1) % splits.length] : `category-${index % 5}`,
        tested_model: index % 3 === 0 ? 'model-a' : 'model-b',
        judgement: index % 29 === 0 ? 'not an object' : judgement,
      };
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apb-official-')), 'judgements.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    expectSameScores(officialScores(lines, ALL), python(file));
  });
});

describe('officialScores readings (hand-checked on the fixture)', () => {
  const scores = officialScores(readLines(ODD), ALL);

  it('counts every line, both models, duplicates included', () => {
    expect(scores.total_records).toBe(23);
    expect(scores.groups.overall!.records).toBe(23);
  });

  it('merges equal names and counts a line once per name it yields', () => {
    // holistic_planning: 5 gpt-5 lines + 4 gpt-4o lines = 9 lines, + line 3 again via its task_category = 10
    expect(scores.groups.holistic_planning!.records).toBe(10);
    // step_wise_planning: 4 split lines (10, 11, 12, 10 of gpt-4o) + line 6 via task_category
    expect(scores.groups.step_wise_planning!.records).toBe(5);
    // "Holistic" is a planning_regime (gpt-5 lines 1–9 and 16, gpt-4o's 4 holistic lines) and, on
    // line 17, a task_family
    expect(scores.groups.Holistic!.records).toBe(10 + 4 + 1);
  });

  it('reads is_correct with Python truthiness and grades as numbers, booleans included', () => {
    // travel: gpt-5 lines 1 (true), 2 ("false" → True), 7 (1), 8 ("" → False), 9 ([] → False), 10 ({} → False),
    // 11 ("0" → True), 12 (judgement null: no key), 16 (true), 17 (true); gpt-4o 1 (false), 2
    // ("False" → True), 10 (true)
    // → 8 True of the 12 lines with the key. Numeric grades: 1, .4, False→0, .1, .2, .7, .8, .8, .2, 0, .1 → 4.3 / 11.
    expect(scores.groups.travel!.records).toBe(13);
    expect(scores.groups.travel!.accuracy).toBeCloseTo(8 / 12, 12);
    expect(scores.groups.travel!.average_grade).toBeCloseTo(4.3 / 11, 12);
    expect(scores.groups.__proto__).toEqual({ records: 1, accuracy: null, average_grade: null });
    expect(scores.groups.nograde).toEqual({ records: 1, accuracy: 1, average_grade: null });
    expect(scores.groups.nokey).toEqual({ records: 1, accuracy: null, average_grade: null });
    expect(pythonTruthy('false')).toBe(true);
    expect(pythonTruthy([])).toBe(false);
    expect(pythonTruthy({})).toBe(false);
    expect(pythonTruthy(0)).toBe(false);
  });
});

describe('computeScores', () => {
  it('returns the official groups plus our tables', () => {
    const scores = computeScores(readLines(ODD));
    expect(Object.keys(scores)).toEqual(['total_records', 'groups', 'tables']);
    expect(scores.groups).toEqual(officialScores(readLines(ODD)).groups);
    // tables see only lines with a known split (line 17 is left out) and parse is_correct strictly
    const table1 = scores.tables.table1.find((row) => row.model === 'gpt-5')!;
    // gpt-5 holistic_planning: 1 true, 2 "false" (a string: no verdict, by the one strict boolean rule),
    // 3 false, 4 no is_correct, 5 null → 1 correct of 5, 3 judge errors
    expect(table1.holistic).toMatchObject({ n: 5, cr: 20, judge_errors: 3 });
  });
});
