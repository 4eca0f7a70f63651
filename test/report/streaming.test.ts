/**
 * Reports over a run of any size: judgement lines are kept as their place in the file (read again
 * when a detail is made, never held), and the HTML page is written part by part — the same bytes
 * as the page rendered whole.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeApbLine, jsonl } from '../../src/report/fake-lines.fixture.js';
import { fakeLeaderboard } from '../../src/report/fake-leaderboard.fixture.js';
import { renderHtml } from '../../src/report/html.js';
import { loadRun } from '../../src/report/load-runs.js';
import { loadReportData, writeHtmlReport } from '../../src/report/write-reports.js';

function runDir(lines: Record<string, unknown>[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-stream-'));
  writeFileSync(path.join(dir, 'judgements.jsonl'), jsonl(lines));
  return dir;
}

describe('reports without holding the lines', () => {
  it('keeps each line as its place in the file and reads it when asked', async () => {
    const dir = runDir(fakeLeaderboard().map(fakeApbLine));
    const run = await loadRun(dir, { lines: true });
    expect(run.lines).toHaveLength(fakeLeaderboard().length);
    expect(run.lines![5]!.line).toMatchObject({ id: fakeLeaderboard()[5]!.id });
    // Rewrite the file with the same bytes but another answer: a held line would not see it.
    const file = path.join(dir, 'judgements.jsonl');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('search then answer', 'SEARCH THEN ANSWER'));
    expect(JSON.stringify(run.lines![0]!.line)).toContain('SEARCH THEN ANSWER');
    expect(run.lines![0]!.queryHead).toBe(String(run.lines![0]!.line.query).slice(0, 240));
  });

  it('streams the HTML page to the same bytes as the page rendered whole', async () => {
    const dir = runDir(
      fakeLeaderboard([
        'openai:gpt-4o',
        'anthropic:claude-sonnet-4-5',
        'google:gemini-2.5-pro',
      ]).map(fakeApbLine),
    );
    const data = await loadReportData([dir], {
      caseBrowser: true,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    const file = path.join(dir, 'report.html');
    writeHtmlReport(file, data);
    expect(readFileSync(file, 'utf8')).toBe(renderHtml(data));
    expect(readFileSync(file, 'utf8')).toContain('id="apb-rows-0"');
  });
});
