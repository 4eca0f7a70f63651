import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { comparePaper, inconsistencyOf, matchPaperModel, PaperTablesSchema } from './paper.js';
import { PAPER_TABLE_SPECS } from './paper-specs.js';
import { renderMarkdown } from './markdown.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderCsv } from './csv.js';

const paper = PaperTablesSchema.parse(
  JSON.parse(readFileSync(new URL('../../data/paper-tables.json', import.meta.url), 'utf8')),
);

describe('paper comparison', () => {
  it.each([
    ['openai:gpt-4o', 'GPT-4o'],
    ['anthropic:claude-sonnet-4-5', 'Claude Sonnet 4.5'],
    ['anthropic:claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5'],
    ['google:gemini-2.5-flash', 'Gemini 2.5 Flash'],
    ['google:gemini-3-pro-preview', 'Gemini 3 Pro'],
    ['openai-compatible:Qwen/Qwen3-VL-32B-Instruct', 'Qwen3-VL-32B-Instruct'],
    ['openai-compatible:qwen3-vl-235b', 'Qwen3-VL-235B-A22B-Instruct'],
    ['openai-compatible:OpenGVLab/InternVL3_5-38B', 'InternVL3.5-38B'],
    ['baseline:heuristic', null],
    ['openai:gpt-4o-mini', null],
  ])('matches %s to %s', (spec, expected) => {
    expect(matchPaperModel(spec, paper)).toBe(expected);
  });

  it("knows the paper's own inconsistencies per cell", () => {
    expect(inconsistencyOf(paper, 1, 'Qwen3-VL-32B-Instruct', 'extraneous_E4')).toBe(
      'table1_extraneous_E3_E6_shifted',
    );
    expect(inconsistencyOf(paper, 1, 'Claude Sonnet 4.5', 'stepwise_Grade')).toBe(
      'table1_last_digit_slips',
    );
    expect(inconsistencyOf(paper, 1, 'GPT-5', 'stepwise_Grade')).toBeNull();
  });

  it("compares our cells at the paper's decimals, mapping E2-H/E2-S across the swapped headers", () => {
    const specs = Array.from({ length: 20 }, (_, index) => ({
      split: 'holistic_planning' as const,
      id: `h${index}`,
      model: 'openai:gpt-4o',
      correct: index < 4,
    }));
    const data = fakeReport([{ dir: 'a', specs }], { paper, caseBrowser: false });
    const result = comparePaper(data.tables, data.groups, paper);
    expect(result.models).toHaveLength(1);
    const cr = result.models[0]!.cells.find((cell) => cell.column === 'holistic_CR')!;
    expect(cr).toMatchObject({
      ours: 20,
      oursRounded: 20,
      paper: 19.5,
      decimals: 1,
      matches: false,
      note: null,
    });
    const table1 = result.models[0]!.cells.filter((cell) => cell.table === 'Table 1');
    expect(table1.length).toBeGreaterThan(0);
    expect(table1.every((cell) => cell.column.startsWith('holistic_'))).toBe(true);
    // The same rows fill the holistic appendix tables, compared too.
    expect(new Set(result.models[0]!.cells.map((cell) => cell.table))).toEqual(
      new Set(['Table 1', 'Table 12', 'Table 13']),
    );
  });
});

describe('paper comparison: verdicts and caveats', () => {
  const specs = Array.from({ length: 20 }, (_, index) => ({
    split: 'holistic_planning' as const,
    id: `h${index}`,
    model: 'openai:gpt-4o',
    correct: index < 4,
  }));
  const data = fakeReport([{ dir: 'a', specs }], { paper, caseBrowser: false });
  const comparison = data.paper!;
  const cr = comparison.models[0]!.cells.find(
    (cell) => cell.table === 'Table 1' && cell.column === 'holistic_CR',
  )!;

  it('gives each rate an exact verdict and a within-our-95 %-interval verdict, with our n', () => {
    // 4/20 = 20 %: Wilson 95 % [8.07, 41.60]; the paper's 19.5 is not 20.0 but lies inside.
    expect(cr).toMatchObject({
      oursRounded: 20,
      paper: 19.5,
      n: 20,
      matches: false,
      withinCi: true,
    });
    expect(cr.ci!.lo).toBeCloseTo(8.07, 1);
    const grade = comparison.models[0]!.cells.find((cell) => cell.column === 'holistic_Grade')!;
    expect(grade.withinCi).toBeNull();
    expect(comparison.models[0]).toMatchObject({
      withCi: expect.any(Number),
      withinCi: expect.any(Number),
    });
  });

  it('states that the data is not the release, and that the judge differs', () => {
    expect(comparison.caveats[0]).toMatch(
      /^The data is not the paper's release \(holistic_planning: 20 case\(s\) here, 1109 in the release\)/,
    );
    expect(comparison.models[0]!.caveats.join(' ')).toMatch(/judge/);
  });

  it('prints the caveats and both verdicts in Markdown, HTML, JSON and CSV', () => {
    const markdown = renderMarkdown(data);
    expect(markdown).toContain("The data is not the paper's release");
    expect(markdown).toContain(
      '| Table | Row | Column | Ours | 95 % CI | n | Paper | Exact | Within CI | Note |',
    );
    expect(renderHtml(data)).toContain('The data is not the paper&#39;s release');
    expect(JSON.parse(renderJson(data)).paper_comparison.caveats[0]).toMatch(
      /not the paper's release/,
    );
    const csv = renderCsv(data);
    expect(csv['paper_comparison.csv']).toContain(
      'model,judge,paper_model,table,row,column,ours,ci_lo,ci_hi,n,paper,exact,within_ci,note',
    );
    expect(csv['notes.csv']).toContain("not the paper's release");
  });

  it('covers every printed table the run fills: Table 5 and Table 18 have specs, as do 4 and 12–17', () => {
    expect(Object.keys(PAPER_TABLE_SPECS)).toEqual([
      'table1',
      'table2',
      'table4',
      'table5',
      'table12',
      'table13',
      'table14',
      'table15',
      'table16',
      'table17',
      'table18',
    ]);
  });

  it('compares Table 4 per method: InternVL3.5-241B critic-guided with the taxonomy, 22 % → 60 % on 50 holistic cases', () => {
    const model = 'openai-compatible:OpenGVLab/InternVL3_5-241B-A28B';
    const base = Array.from({ length: 50 }, (_, index) => ({
      split: 'holistic_planning' as const,
      id: `h${index}`,
      model,
      correct: index < 11,
    }));
    const refined = base.map((spec, index) => ({
      ...spec,
      correct: index < 30,
      refinement: {
        mode: 'critic' as const,
        taxonomy: true,
        critic: 'anthropic:claude-sonnet-4-5',
      },
    }));
    const data = fakeReport([{ dir: 'a', specs: [...base, ...refined] }], {
      paper,
      caseBrowser: false,
    });
    const result = comparePaper(data.tables, data.groups, paper);
    const cells = result.models[0]!.cells.filter((cell) => cell.table === 'Table 4');
    // Only the holistic cells of Critic_R+ have both sides (no step-wise rows, no other method refined).
    expect(
      cells.map((cell) => [
        `${cell.row} ${cell.column}`,
        cell.oursRounded,
        cell.paper,
        cell.matches,
      ]),
    ).toEqual([
      ['Critic_R+ holistic_base', 22, 22, true],
      ['Critic_R+ holistic_refined', 60, 60, true],
      ['Critic_R+ holistic_delta', 38, 38, true],
    ]);
    // A refined run's report alone (no unrefined rows) is compared through Table 4's groups.
    const alone = fakeReport([{ dir: 'b', specs: refined }], { paper, caseBrowser: false });
    expect(
      comparePaper(alone.tables, alone.groups, paper).models.map((entry) => entry.paperModel),
    ).toEqual(['InternVL3.5-241B-A28B']);
  });
  it('compares Table 4 step-wise on next-1 only in a mixed-horizon run, and says which horizon and subset', () => {
    const model = 'openai-compatible:Qwen/Qwen3-VL-32B-Instruct';
    const selfMinus = { mode: 'self' as const, taxonomy: false, critic: null };
    // next-1: 150 cases, base 111 (74.00 %), refined 95 (63.33 %) — the paper's Self_R− step-wise row.
    // next-2 (60 cases, base 30) and next-3 (40 cases, base 10) would pool to a base of 60.4 %.
    const horizon = (h: 1 | 2 | 3, count: number, baseCorrect: number, refinedCorrect: number) =>
      Array.from({ length: count }, (_, index) => ({
        split: 'step_wise_planning' as const,
        id: `s${h}-${index}`,
        model,
        horizon: h,
        correct: index < baseCorrect,
        refinedCorrect: index < refinedCorrect,
      }));
    const cases = [
      ...horizon(1, 150, 111, 95),
      ...horizon(2, 60, 30, 20),
      ...horizon(3, 40, 10, 5),
    ];
    const specs = cases.flatMap(({ refinedCorrect, ...spec }) => [
      spec,
      { ...spec, correct: refinedCorrect, refinement: selfMinus },
    ]);
    const data = fakeReport([{ dir: 'a', specs }], { paper, caseBrowser: false });
    expect(data.tables.table4.map((row) => [row.regime, row.n])).toEqual([
      ['step_wise_next1', 150],
      ['step_wise_next2', 60],
      ['step_wise_next3', 40],
    ]);
    const result = comparePaper(data.tables, data.groups, paper);
    const cells = result.models[0]!.cells.filter((cell) => cell.table === 'Table 4');
    expect(
      cells.map((cell) => [`${cell.row} ${cell.column}`, cell.oursRounded, cell.paper, cell.n]),
    ).toEqual([
      ['Self_R- stepwise_base', 74, 74, 150],
      ['Self_R- stepwise_refined', 63.33, 63.33, 150],
      ['Self_R- stepwise_delta', -10.67, -10.67, 150],
    ]);
    const caveats = result.models[0]!.caveats.join(' ');
    expect(caveats).toContain('step-wise column is next-1 only');
    expect(caveats).toContain('step_wise_next1 self− n=150 (test 150)');
    expect(caveats).toContain('step_wise_next2, step_wise_next3 rows (n=60/40)');
    expect(caveats).toContain('judged by GPT-5');
  });
});
