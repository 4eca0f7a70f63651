import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';

describe('buildReportData', () => {
  it('gives one row per (model, judge) in Table 1 and the counts behind it', () => {
    const data = fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }]);
    expect(data.tables.table1.map((row) => [row.model, row.judge])).toEqual([
      ['openai:gpt-4o', 'rules'],
      ['anthropic:claude-sonnet-4-5', 'rules'],
    ]);
    expect(data.groups.map((group) => [group.model, group.n, group.tag])).toEqual([
      ['openai:gpt-4o', 72, 'A'],
      ['anthropic:claude-sonnet-4-5', 72, 'A'],
    ]);
    expect(data.comparability.comparable).toBe(true);
    expect(data.runs[0]).toMatchObject({
      dir: 'runs/a',
      source: 'apb-lines',
      judgements: 144,
      duplicates: 0,
    });
  });

  it('labels groups judged by another judge or with other prompt versions as not directly comparable', () => {
    const base = fakeLeaderboard(['m1']);
    const data = fakeReport([
      { dir: 'runs/a', specs: base },
      {
        dir: 'runs/b',
        specs: base.map((spec) => ({ ...spec, model: 'm2', judge: 'openai:gpt-5' })),
      },
      {
        dir: 'runs/c',
        specs: base.map((spec) => ({ ...spec, model: 'm3', promptVersion: 'planner-v2' })),
      },
      { dir: 'runs/d', specs: base.map((spec) => ({ ...spec, model: 'm4' })) },
    ]);
    expect(data.comparability.comparable).toBe(false);
    expect(data.groups.map((group) => `${group.model}:${group.tag}`)).toEqual([
      'm1:A',
      'm2:B',
      'm3:C',
      'm4:A',
    ]);
    expect(data.notes.join('\n')).toContain('Not directly comparable');
  });

  it('keeps the first of duplicated judgements across runs and says so', () => {
    const specs = fakeLeaderboard(['m1']).slice(0, 10);
    const data = fakeReport([
      { dir: 'runs/a', specs },
      { dir: 'runs/a-again', specs },
    ]);
    expect(data.groups[0]!.n).toBe(10);
    expect(data.runs[1]!.duplicates).toBe(10);
    expect(
      data.notes.some((note) => note.startsWith('runs/a-again: 10 judgement(s) ignored')),
    ).toBe(true);
  });

  it('counts planner, parse and judge failures behind every table without counting them correct', () => {
    const data = fakeReport([
      {
        dir: 'runs/a',
        specs: [
          { split: 'holistic_planning', id: 'a', correct: true },
          { split: 'holistic_planning', id: 'b', status: 'error' },
          { split: 'holistic_planning', id: 'c', status: 'parse_error' },
          { split: 'holistic_planning', id: 'd', judgeStatus: 'judge_error' },
        ],
      },
    ]);
    expect(data.tables.table1[0]!.holistic).toMatchObject({
      n: 4,
      correct: 1,
      cr: 25,
      errors: 1,
      parse_errors: 1,
      judge_errors: 1,
    });
    expect(data.cases!.rows.s).toEqual([0, 2, 3, 4]);
  });
});
