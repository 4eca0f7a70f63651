/** `apb score` on our run directories and on a directory holding only an official-harness judgements.jsonl. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, runMain } from '../helpers/cli.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'apb-score-'));

describe('apb score', () => {
  it('scores a directory that holds only an official-harness judgements.jsonl', async () => {
    const dir = tempDir();
    copyFileSync(
      path.join(REPO_ROOT, 'test/metrics/fixtures/official-odd.jsonl'),
      path.join(dir, 'judgements.jsonl'),
    );
    const result = await runMain(['score', dir]);
    expect(result.code, result.stderr).toBe(0);
    const scores = JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8'));
    // The official scorer never sees holistic_efficiency lines (the project's own split): one here.
    const lines = readFileSync(path.join(dir, 'judgements.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const efficiency = lines.filter((line) => line.includes('"holistic_efficiency"')).length;
    expect(efficiency).toBe(1);
    expect(scores.total_records).toBe(lines.length - efficiency);
    expect(Object.keys(scores.groups)).toContain('overall');
    expect(scores.tables).toBeDefined();
  });

  it("reproduces the run's own scores.json, and reports an unreadable line by file and line", async () => {
    const out = path.join(tempDir(), 'run');
    expect(
      (await runCli(['run', '--model', 'baseline:oracle', '--limit', '2', '--out', out])).code,
    ).toBe(0);
    const written = readFileSync(path.join(out, 'scores.json'), 'utf8');
    expect((await runMain(['score', out])).code).toBe(0);
    expect(readFileSync(path.join(out, 'scores.json'), 'utf8')).toBe(written);
    writeFileSync(
      path.join(out, 'judgements.jsonl'),
      `${readFileSync(path.join(out, 'judgements.jsonl'), 'utf8')}{broken\n`,
    );
    const bad = await runMain(['score', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/judgements\.jsonl:\d+: \(line\): invalid JSON/);
    expect((await runMain(['score', tempDir()])).code).toBe(2);
  });
});
