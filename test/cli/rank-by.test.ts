/**
 * `--rank-by METRIC` (issue 26): a leaderboard's scorecard ranked by the chosen headline, in
 * `apb run` (leaderboard.md/html) and `apb report`; holistic CR by default; a bad name refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../engine/helpers.js';

const MODELS = ['baseline:oracle', 'baseline:heuristic', 'baseline:refuse'];

/** The scorecard's (place, model) pairs in the order the Markdown lists them. */
function places(markdown: string): string[] {
  const section = markdown.split('## Scorecard')[1]!.split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((line) => /^\| \d+ \| baseline:/.test(line))
    .map((line) => line.split(' | ').slice(0, 2).join(' ').replace('| ', ''))
    .map((text) => text.replace(/ \(baseline, not a model\)/, ''));
}

describe('--rank-by', () => {
  it('ranks the leaderboard of apb run and of apb report by the chosen headline', async () => {
    const board = path.join(tempDir('apb-rank-by-'), 'board');
    const run = await cli([
      'run',
      ...MODELS.flatMap((model) => ['--model', model]),
      '--rank-by',
      'unsolvable',
      '--out',
      board,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const leaderboard = readFileSync(path.join(board, 'leaderboard.md'), 'utf8');
    expect(leaderboard).toContain('ranked by Unsolvable pass');
    // Refusing everything passes every unsolvable case: refuse shares the first place with oracle.
    expect(places(leaderboard)).toEqual([
      '1 baseline:oracle',
      '1 baseline:refuse',
      '3 baseline:heuristic',
    ]);
    const dirs = MODELS.map((model) => path.join(board, model.replace(':', '-')));
    const byDefault = await cli(['report', ...dirs]);
    expect(byDefault.stdout).toContain('ranked by Holistic CR');
    expect(places(byDefault.stdout)[0]).toBe('1 baseline:oracle');
    expect(
      places(byDefault.stdout)
        .slice(1)
        .map((entry) => entry[0]),
    ).toEqual(['2', '2']);
    const byTool = await cli(['report', ...dirs, '--rank-by', 'tool-broken']);
    expect(byTool.code, byTool.stderr).toBe(0);
    expect(byTool.stdout).toContain('ranked by Tool-broken Replace');
    const bad = await cli(['report', ...dirs, '--rank-by', 'speed']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be one of holistic, step_wise, tool_extraneous');
  });
});
