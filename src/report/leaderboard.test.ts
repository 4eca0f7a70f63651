/**
 * Leaderboard semantics of the report data: the scorecard is ranked by a chosen headline (ties
 * share a place, rows without a value last), rows of an unfinished run are marked and every format
 * opens with a banner saying how many cases the run holds, one model on two datasets gives two
 * rows, and tool-broken cases without any behaviour give "–", not 0 %.
 */
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../pipeline/manifest.js';
import { fakeOfficialLine, fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';
import { renderJson } from './json.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { rankScorecard, type HeadlineCell, type ScorecardRow } from './scorecard.js';
import { buildReportData } from './report-data.js';
import { rowFromJudgementLine } from '../pipeline/result-rows.js';

const manifest = (status: Manifest['status'], hash: string, cases: number) =>
  ({
    status,
    dataset: { path: `/data/${hash}-set`, content_hash: `${hash}0123456789abcdef` },
    identity: { protocol: 'paper', tested_model: 'x' },
    counts: { cases },
  }) as unknown as Manifest;

const row = (model: string, holistic: number | null): ScorecardRow => ({
  model,
  judge: 'rules',
  cells: [
    { key: 'holistic', label: 'Holistic CR', value: holistic, ci: null, n: 10 } as HeadlineCell,
  ],
});

describe('the leaderboard', () => {
  it('ranks by the chosen headline: best first, ties share a place, no value last', () => {
    const ranked = rankScorecard(
      [row('a', 40), row('b', null), row('c', 70), row('d', 40), row('e', 10)],
      'holistic',
    );
    expect(ranked.map((entry) => [entry.model, entry.rank])).toEqual([
      ['c', 1],
      ['a', 2],
      ['d', 2],
      ['e', 4],
      ['b', null],
    ]);
  });

  it('ranks the report by holistic CR unless told otherwise', () => {
    const specs = fakeLeaderboard(['m1', 'm2', 'm3']);
    const data = fakeReport([{ dir: 'runs/a', specs }]);
    const holistic = (entry: ScorecardRow) => entry.cells.find((c) => c.key === 'holistic')!.value!;
    const values = data.scorecard.map(holistic);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(data.rankBy).toBe('holistic');
    const byUnsolvable = fakeReport([{ dir: 'runs/a', specs }], { rankBy: 'unsolvable' });
    expect(byUnsolvable.rankBy).toBe('unsolvable');
    const pass = (entry: ScorecardRow) => entry.cells.find((c) => c.key === 'unsolvable')!.value!;
    const passes = byUnsolvable.scorecard.map(pass);
    expect([...passes].sort((a, b) => b - a)).toEqual(passes);
  });

  it('puts a banner with the cases held on every format of an interrupted run and marks its row', () => {
    const specs = fakeLeaderboard(['m1']);
    const done = fakeLeaderboard(['m2']);
    const data = fakeReport([
      { dir: 'runs/cut', specs, manifest: manifest('interrupted', 'aaaa', 769) },
      { dir: 'runs/done', specs: done, manifest: manifest('complete', 'aaaa', 72) },
    ]);
    expect(data.banners).toHaveLength(1);
    expect(data.banners[0]).toContain('runs/cut was interrupted');
    expect(data.banners[0]).toContain('It holds 72 of 769 case(s)');
    expect(data.scorecard.find((entry) => entry.model === 'm1')?.unfinished).toBe('interrupted');
    expect(data.scorecard.find((entry) => entry.model === 'm2')?.unfinished).toBeNull();
    expect(renderMarkdown(data)).toContain('> **⚠ Unfinished run: runs/cut was interrupted');
    expect(renderHtml(data)).toMatch(/<p class="banner" role="alert">⚠ Unfinished run: runs\/cut/);
    expect(JSON.parse(renderJson(data)).report.banners).toEqual(data.banners);
    const failed = fakeReport([{ dir: 'r', specs, manifest: manifest('failed', 'aaaa', 100) }]);
    expect(failed.banners[0]).toContain('r failed');
    const finished = fakeReport([{ dir: 'r', specs, manifest: manifest('complete', 'aaaa', 72) }]);
    expect(finished.banners).toEqual([]);
  });

  it('never pools one model on two datasets into one Table 1 row', () => {
    const specs = fakeLeaderboard(['m1']);
    const data = fakeReport([
      { dir: 'runs/one', specs, manifest: manifest('complete', 'aaaa', 72) },
      { dir: 'runs/two', specs, manifest: manifest('complete', 'bbbb', 72) },
    ]);
    expect(data.tables.table1.map((entry) => entry.model)).toEqual(['m1', 'm1 @ bbbb-set']);
    expect(data.tables.table1.map((entry) => entry.holistic.n)).toEqual([12, 12]);
    expect(data.runs.map((run) => run.duplicates)).toEqual([0, 0]);
    expect(data.notes.some((note) => note.includes('m1 → m1 @ bbbb-set'))).toBe(true);
  });

  it('shows "–" for tool-broken Replace when the lines carry no behaviour (official results)', () => {
    const lines = fakeLeaderboard(['m1'])
      .filter((spec) => spec.split === 'step_wise_tool_broken')
      .map((spec) => fakeOfficialLine({ ...spec, behavior: undefined }));
    const data = buildReportData([
      { dir: 'official', rows: lines.map((line) => rowFromJudgementLine(line)), manifest: null },
    ]);
    const cell = data.scorecard[0]!.cells.find((entry) => entry.key === 'tool_broken')!;
    expect(cell.n).toBe(12);
    expect(cell.value).toBeNull();
    expect(renderMarkdown(data)).not.toContain('0.0 [');
  });
});
