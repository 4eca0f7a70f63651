import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../construction/random.js';
import { officialScores } from '../metrics/official-groups.js';
import { fakeApbLine } from '../report/fake-lines.fixture.js';
import { fakeLeaderboard } from '../report/fake-leaderboard.fixture.js';
import { judgeSections } from './judge-sections.js';
import { computeScores, slimLine } from './scores.js';

type Loose = Record<string, unknown>;

/** A deterministic shuffle (mulberry32). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = mulberry32(seed);
  const out = [...items];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}

const ODD = path.resolve('test/metrics/fixtures/official-odd.jsonl');
const readOdd = () =>
  readFileSync(ODD, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Loose);

describe('computeScores', () => {
  it('gives the same scores.json to the last bit whatever order the lines come in', () => {
    // Grades off the halves, so a float sum in another order would differ in its last bits.
    const lines = fakeLeaderboard().map((spec, index) =>
      fakeApbLine({
        ...spec,
        grade: spec.correct ? 1 : [0, 0.2, 0.4, 0.6, 0.8][index % 5]!,
        repeat: index % 2,
      }),
    );
    const expected = computeScores(lines);
    for (const seed of [1, 2, 3]) {
      const order = shuffled(lines, seed);
      // The (model, judge) first seen stays first: it decides the order of table rows.
      order.unshift(...order.splice(order.indexOf(lines[0]!), 1));
      expect(computeScores(order)).toEqual(expected);
    }
    expect(expected.groups.overall!.records).toBe(lines.length);
  });

  it('reads the same official groups and judge sections from slim lines as from whole ones', () => {
    const odd = readOdd();
    const fromSlim = officialScores(odd.map(slimLine));
    expect(fromSlim).toEqual(officialScores(odd));
    const scores = computeScores(odd);
    for (const [name, group] of Object.entries(officialScores(odd).groups)) {
      expect(scores.groups[name]!.records, name).toBe(group.records);
      for (const key of ['accuracy', 'average_grade'] as const) {
        if (group[key] === null) expect(scores.groups[name]![key]).toBeNull();
        else expect(scores.groups[name]![key]).toBeCloseTo(group[key], 12);
      }
    }
    const member = (judge: string, correct: boolean) => ({
      judge,
      kind: 'llm',
      status: 'ok',
      judgement: {
        is_correct: correct,
        grade: correct ? 1 : 0.4,
        error_list: [0, 0, 0, 1, 0, 0],
        reasoning: 'long text',
      },
      contradictions: [],
      notes: [],
    });
    const panel = ['c1', 'c2', 'c3', 'c4'].map((id, index) => ({
      ...fakeApbLine({ split: 'holistic_planning', id, judge: 'panel(A+B)', correct: index > 1 }),
      apb: {
        status: 'ok',
        prediction: { repeat: 0 },
        judges: [member('A', index > 0), member('B', index > 1)],
        contradictions: [{ code: 'correct-with-distractor', message: 'm' }],
      },
    }));
    expect(judgeSections(panel.map(slimLine))).toEqual(judgeSections(panel));
    expect(computeScores(panel).agreement).toEqual(judgeSections(panel).agreement);
    expect(JSON.stringify(slimLine(panel[0]!))).not.toContain('long text');
  });
});
