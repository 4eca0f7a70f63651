import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { comparePaper, inconsistencyOf, matchPaperModel, PaperTablesSchema } from './paper.js';

const paper = PaperTablesSchema.parse(JSON.parse(readFileSync(new URL('../../data/paper-tables.json', import.meta.url), 'utf8')));

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

  it('knows the paper\'s own inconsistencies per cell', () => {
    expect(inconsistencyOf(paper, 1, 'Qwen3-VL-32B-Instruct', 'extraneous_E4')).toBe('table1_extraneous_E3_E6_shifted');
    expect(inconsistencyOf(paper, 1, 'Claude Sonnet 4.5', 'stepwise_Grade')).toBe('table1_last_digit_slips');
    expect(inconsistencyOf(paper, 1, 'GPT-5', 'stepwise_Grade')).toBeNull();
  });

  it('compares our cells at the paper\'s decimals, mapping E2-H/E2-S across the swapped headers', () => {
    const specs = Array.from({ length: 20 }, (_, index) => ({ split: 'holistic_planning' as const, id: `h${index}`, model: 'openai:gpt-4o', correct: index < 4 }));
    const data = fakeReport([{ dir: 'a', specs }], { paper, caseBrowser: false });
    const result = comparePaper(data.tables, data.groups, paper);
    expect(result.models).toHaveLength(1);
    const cr = result.models[0]!.cells.find((cell) => cell.column === 'holistic_CR')!;
    expect(cr).toMatchObject({ ours: 20, oursRounded: 20, paper: 19.5, decimals: 1, matches: false, note: null });
    expect(result.models[0]!.cells.every((cell) => cell.table === 'Table 1' && cell.column.startsWith('holistic_'))).toBe(true);
  });

  it('compares Table 4 per method: InternVL3.5-241B critic-guided with the taxonomy, 22 % → 60 % on 50 holistic cases', () => {
    const model = 'openai-compatible:OpenGVLab/InternVL3_5-241B-A28B';
    const base = Array.from({ length: 50 }, (_, index) => ({ split: 'holistic_planning' as const, id: `h${index}`, model, correct: index < 11 }));
    const refined = base.map((spec, index) => ({ ...spec, correct: index < 30, refinement: { mode: 'critic' as const, taxonomy: true, critic: 'anthropic:claude-sonnet-4-5' } }));
    const data = fakeReport([{ dir: 'a', specs: [...base, ...refined] }], { paper, caseBrowser: false });
    const result = comparePaper(data.tables, data.groups, paper);
    const cells = result.models[0]!.cells.filter((cell) => cell.table === 'Table 4');
    // Only the holistic cells of Critic_R+ have both sides (no step-wise rows, no other method refined).
    expect(cells.map((cell) => [cell.column, cell.oursRounded, cell.paper, cell.matches])).toEqual([
      ['Critic_R+ holistic_base', 22, 22, true],
      ['Critic_R+ holistic_refined', 60, 60, true],
      ['Critic_R+ holistic_delta', 38, 38, true],
    ]);
    // A refined run's report alone (no unrefined rows) is compared through Table 4's groups.
    const alone = fakeReport([{ dir: 'b', specs: refined }], { paper, caseBrowser: false });
    expect(comparePaper(alone.tables, alone.groups, paper).models.map((entry) => entry.paperModel)).toEqual(['InternVL3.5-241B-A28B']);
  });
});
