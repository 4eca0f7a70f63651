import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';
import { renderJson } from './json.js';

describe('json', () => {
  it('has the CONTRACT.md Table 1 shape, unrounded', () => {
    const output = JSON.parse(
      renderJson(fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }])),
    );
    const row = output.tables.table1[0];
    expect(Object.keys(row)).toEqual(
      expect.arrayContaining([
        'model',
        'judge',
        'holistic',
        'step_wise',
        'tool_extraneous',
        'tool_broken',
        'unsolvable',
      ]),
    );
    for (const block of ['holistic', 'step_wise'])
      expect(Object.keys(row[block])).toEqual(
        expect.arrayContaining(['cr', 'grade', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'n']),
      );
    expect(Object.keys(row.tool_extraneous)).toEqual(
      expect.arrayContaining(['cr', 'grade', 'e1', 'e2_h', 'e2_s', 'e3', 'e4', 'e5', 'e6', 'n']),
    );
    expect(Object.keys(row.tool_broken)).toEqual(
      expect.arrayContaining(['replace', 'alter', 'retry', 'refuse', 'other', 'n']),
    );
    expect(Object.keys(row.unsolvable)).toEqual(
      expect.arrayContaining(['conf', 'info', 'tool', 'vis', 'n']),
    );
    expect(row.tool_extraneous.cr).toBeCloseTo((100 / 3 + 50) / 2, 10);
    expect(output.report.totals).toHaveLength(2);
    expect(output.paper_comparison).toBeUndefined();
  });
});
