import { describe, expect, it } from 'vitest';
import type { SplitName } from '../dataset/case.js';
import { fakeRow } from '../metrics/fake-rows.fixture.js';
import type { ResultRow } from '../metrics/result-row.js';
import { classifyGroups, comparabilityProfile } from './comparability.js';
import { buildReportData } from './report-data.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { Manifest } from '../pipeline/manifest.js';

const rows = (
  model: string,
  split: SplitName,
  ids: string[],
  promptVersion = `${split}@1`,
): ResultRow[] =>
  ids.map((id) =>
    fakeRow({
      id,
      model,
      judge: 'rules',
      promptVersion,
      judgePromptVersion: 'rules@2',
      facets: { split },
    }),
  );
const group = (model: string, list: ResultRow[], dataset = 'hash-a') => ({
  model,
  judge: 'rules',
  profile: comparabilityProfile('rules', list, ['paper'], [dataset]),
});

describe('comparability', () => {
  it('keeps models comparable on the splits they share, whatever else each covers', () => {
    const a = group('a', [
      ...rows('a', 'holistic_planning', ['h1', 'h2']),
      ...rows('a', 'step_wise_planning', ['s1']),
    ]);
    const b = group('b', rows('b', 'holistic_planning', ['h1', 'h2']));
    expect(classifyGroups([a, b])).toMatchObject({ comparable: true, warnings: [] });
  });

  it('separates another prompt version on a shared split', () => {
    const a = group('a', rows('a', 'holistic_planning', ['h1']));
    const b = group('b', rows('b', 'holistic_planning', ['h1'], 'holistic_planning@2'));
    expect(classifyGroups([a, b]).tags).toEqual({ '["a","rules"]': 'A', '["b","rules"]': 'B' });
  });

  it('separates another dataset and says the rows cover different data', () => {
    const result = classifyGroups([
      group('a', rows('a', 'holistic_planning', ['h1'])),
      group('b', rows('b', 'holistic_planning', ['h1']), 'hash-b'),
    ]);
    expect(result.comparable).toBe(false);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Rows cover different data: 2 datasets/),
    ]);
  });

  it('says when rows cover different cases of a shared split', () => {
    const result = classifyGroups([
      group('a', rows('a', 'holistic_planning', ['h1', 'h2', 'h3'])),
      group('b', rows('b', 'holistic_planning', ['h1', 'h2'])),
    ]);
    expect(result.comparable).toBe(true);
    expect(result.warnings).toEqual([
      'Rows cover different cases on holistic_planning: a (rules) 3, b (rules) 2; 2 shared by all. Compare them on the shared cases (the paired comparisons do).',
    ]);
  });
});

describe('the Dataset column and the coverage warning in the reports', () => {
  const manifest = (hash: string) =>
    ({
      dataset: { path: `/data/${hash}`, content_hash: `${hash}0123456789abcdef` },
      identity: { protocol: 'paper', tested_model: 'x' },
      status: 'complete',
    }) as unknown as Manifest;
  const data = buildReportData([
    {
      dir: 'run-a',
      rows: rows('a', 'holistic_planning', ['h1', 'h2']),
      manifest: manifest('aaaa'),
    },
    { dir: 'run-b', rows: rows('b', 'holistic_planning', ['h1']), manifest: manifest('aaaa') },
    { dir: 'run-c', rows: rows('c', 'holistic_planning', ['x1']), manifest: manifest('bbbb') },
  ]);

  it("lists each run's dataset path, short hash and case count, and warns", () => {
    expect(data.runs.map((run) => [run.dataset, run.datasetHash?.slice(0, 4), run.cases])).toEqual([
      ['/data/aaaa', 'aaaa', 2],
      ['/data/aaaa', 'aaaa', 1],
      ['/data/bbbb', 'bbbb', 1],
    ]);
    // Cases are compared within one dataset: a and b, not c.
    expect(data.notes.filter((note) => note.startsWith('Rows cover different cases'))).toEqual([
      'Rows cover different cases on holistic_planning: a (rules) 2, b (rules) 1; 1 shared by all. Compare them on the shared cases (the paired comparisons do).',
    ]);
    expect(data.notes.some((note) => note.startsWith('Rows cover different data'))).toBe(true);
    expect(
      data.notes.some((note) => note.startsWith('Rows cover different cases on holistic_planning')),
    ).toBe(true);
  });

  it('prints them in HTML and JSON', () => {
    const html = renderHtml(data);
    expect(html).toContain('<th scope="col">Dataset</th>');
    expect(html).toContain('Rows cover different data');
    const json = JSON.parse(renderJson(data));
    expect(json.report.runs[0]).toMatchObject({ dataset: '/data/aaaa', cases: 2 });
    expect(json.report.notes.join('\n')).toContain(
      'Rows cover different cases on holistic_planning',
    );
  });

  it('prints them in Markdown and CSV', () => {
    const markdown = renderMarkdown(data);
    expect(markdown).toContain('| Run | Source | Dataset |');
    expect(markdown).toContain('/data/aaaa, aaaa01234567…, 2 case(s)');
    expect(markdown).toContain('Rows cover different data');
    const csv = renderCsv(data);
    expect(csv['runs.csv']).toContain('dataset,dataset_hash,cases');
    expect(csv['notes.csv']).toContain('Rows cover different cases on holistic_planning');
  });
});
