/**
 * `apb report` through the CLI's `main` (in process; it reads src/, no build needed), and
 * `writeRunReports`.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunReports } from '../../src/report/write-reports.js';
import { runMain } from '../helpers/cli.js';
import { fakeApbLine, fakeOfficialLine, jsonl } from '../../src/report/fake-lines.fixture.js';
import { fakeLeaderboard } from '../../src/report/fake-leaderboard.fixture.js';

function runDir(lines: Record<string, unknown>[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-report-'));
  writeFileSync(path.join(dir, 'judgements.jsonl'), jsonl(lines));
  return dir;
}

const officialDir = () => runDir(fakeLeaderboard(['gpt-4o']).map(fakeOfficialLine));

describe('apb report', () => {
  it('reads a directory holding only an official-harness judgements.jsonl and prints Markdown', async () => {
    const result = await runMain(['report', officialDir()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('official harness (no manifest)');
    expect(result.stdout).toContain('### Table 1 · Holistic planning');
    expect(result.stdout).toContain('| gpt-4o | gemini-3-pro-preview | 50.0 |');
  });

  it('makes a leaderboard: one Table 1 row per (model, judge) across run directories', async () => {
    const a = runDir(fakeLeaderboard(['m1']).map(fakeApbLine));
    const b = runDir(
      fakeLeaderboard(['m2']).map((spec) => fakeApbLine({ ...spec, judge: 'openai:gpt-5' })),
    );
    const result = await runMain(['report', a, b, '--format', 'json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(
      output.tables.table1.map(
        (row: { model: string; judge: string }) => `${row.model}/${row.judge}`,
      ),
    ).toEqual(['m1/rules', 'm2/openai:gpt-5']);
    expect(output.report.comparable).toBe(false);
    expect(result.stderr).toContain('Not directly comparable');
  });

  it('writes every CSV table to --out DIR, the scorecard alone to stdout or FILE.csv', async () => {
    const dir = officialDir();
    const base = mkdtempSync(path.join(tmpdir(), 'apb-csv-'));
    const out = path.join(base, 'tables');
    const result = await runMain(['report', dir, '--format', 'csv', '--out', out]);
    expect(result.code).toBe(0);
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(['scorecard.csv', 'table1_holistic.csv', 'table2.csv', 'runs.csv']),
    );
    const scorecard = readFileSync(path.join(out, 'scorecard.csv'), 'utf8');
    expect(scorecard.split('\r\n')[0]).toMatch(/^rank,model,judge,holistic,/);

    const piped = await runMain(['report', dir, '--format', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(scorecard);
    expect(piped.stderr).toMatch(/the scorecard only; --out DIR writes all \d+ tables/);

    const file = path.join(base, 'board.csv');
    const single = await runMain(['report', dir, '--format', 'csv', '--out', file]);
    expect(single.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(scorecard);
    // An existing directory is a directory, whatever its name ends with.
    const named = path.join(base, 'dir.csv');
    mkdirSync(named);
    expect((await runMain(['report', dir, '--format', 'csv', '--out', named])).code).toBe(0);
    expect(readdirSync(named)).toContain('table2.csv');
  });

  it('writes a self-contained HTML file with --out', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-html-')), 'report.html');
    const result = await runMain(['report', officialDir(), '--format', 'html', '--out', out]);
    expect(result.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('id="apb-index"');
  });

  it.each([
    [
      ['--format', 'xml'],
      /^apb: option '--format <format>' argument 'xml' is invalid\. allowed values: md, csv, json, html$/m,
    ],
    [['--out'], /argument missing/],
  ])('refuses bad arguments %j with exit 2', async (extra, message) => {
    const result = await runMain(['report', officialDir(), ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('names the file, line and field of an unreadable judgement line, and a missing directory', async () => {
    const dir = runDir([
      fakeOfficialLine({ split: 'holistic_planning', id: 'a' }),
      { split: 'holistic_planning', judgement: {} },
    ]);
    const bad = await runMain(['report', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${path.join(dir, 'judgements.jsonl')}:2: id: missing`);
    const missing = await runMain(['report', path.join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('run directory not found');
  });
});

describe('writeRunReports', () => {
  it('writes report.md and report.html into the run directory', async () => {
    const dir = runDir(fakeLeaderboard(['m1']).map(fakeApbLine));
    mkdirSync(dir, { recursive: true });
    const written = await writeRunReports(dir, { now: new Date('2025-01-01T00:00:00Z') });
    expect(written).toEqual({
      markdown: path.join(dir, 'report.md'),
      html: path.join(dir, 'report.html'),
      data: expect.objectContaining({ runs: [expect.objectContaining({ dir })] }),
    });
    expect(readFileSync(written.markdown, 'utf8')).toContain('Generated 2025-01-01T00:00:00.000Z.');
    expect(existsSync(written.html)).toBe(true);
  });
});
