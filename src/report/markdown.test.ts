import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';
import { markdownCell, markdownTable, renderMarkdown } from './markdown.js';

describe('markdown', () => {
  it('renders a small table (inline snapshot)', () => {
    expect(
      markdownTable(
        ['Model', 'CR %'],
        [
          ['a|b', '74.5'],
          ['<img>', '–'],
        ],
      ),
    ).toMatchInlineSnapshot(`
      "| Model | CR % |
      |---|---|
      | a\\|b | 74.5 |
      | &lt;img&gt; | – |"
    `);
    expect(markdownCell('two\nlines')).toBe('two lines');
  });

  it('puts Tables 1 and 2 first, then the appendix tables, error incidence and paired comparisons, with CIs and the CI method', () => {
    const text = renderMarkdown(fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }]));
    const order = [
      '### Table 1 · Holistic planning',
      '### Table 1 · Step-wise planning',
      '### Table 1 · Tool-extraneous',
      '### Table 1 · Tool-broken',
      '### Table 1 · Unsolvable',
      '### Table 2',
      '### Table 12',
      '### Table 13',
      '### Table 14',
      '### Table 15',
      '### Table 16',
      '### Table 17',
      '### Table 18',
      '### Error incidence by setting',
      '### Paired comparisons',
    ];
    const positions = order.map((heading) => text.indexOf(heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain('| CR % | 95 % CI | Grade |');
    expect(text).toContain('Wilson score');
    expect(text).toMatch(/\| (A ahead|B ahead|not distinguishable at 95 %) \|/);
    expect(text).not.toContain('### Table 4');
    expect(text).not.toContain('### Table 5');
  });

  it('adds Table 4 (refinement) and Table 5 (efficiency) when the runs fill them', () => {
    const base = Array.from({ length: 6 }, (_, index) => ({
      split: 'holistic_planning' as const,
      id: `h${index}`,
      model: 'm1',
      correct: index < 2,
    }));
    const refined = base.map((spec, index) => ({
      ...spec,
      correct: index < 4,
      refinement: { mode: 'self' as const, taxonomy: true },
    }));
    const efficiency = Array.from({ length: 4 }, (_, index) => ({
      split: 'holistic_efficiency' as const,
      id: `e${index}`,
      model: 'm1',
      correct: index < 3,
      planCost: 10 + index,
    }));
    const text = renderMarkdown(
      fakeReport([{ dir: 'a', specs: [...base, ...refined, ...efficiency] }]),
    );
    // Base 2/6, refined 4/6: Δ +33.33, two flips to correct, none back; McNemar p = 2 · ¼ = 0.5
    expect(text).toMatch(
      /### Table 4 · Inference-time refinement[\s\S]*\| m1 \| rules \(structural judge\) \| Self_R\+ \| – \| holistic \| 33\.33 \| [^|]+ \| 66\.67 \| [^|]+ \| \+33\.33 \| 2 \| 0 \| 0\.50* \| 6 \| 0 \|/,
    );
    expect(text).toMatch(
      /### Table 5 · Planning efficiency[\s\S]*\| m1 \| rules \(structural judge\) \| 75\.0 \|/,
    );
    expect(text.indexOf('### Table 4')).toBeGreaterThan(text.indexOf('### Table 1'));
  });

  it('warns when rows are not directly comparable and tags them', () => {
    const specs = fakeLeaderboard(['m1']);
    const text = renderMarkdown(
      fakeReport([
        { dir: 'a', specs },
        { dir: 'b', specs: specs.map((spec) => ({ ...spec, model: 'm2', judge: 'other-judge' })) },
      ]),
    );
    expect(text).toContain('**Not directly comparable.**');
    expect(text).toContain('| Model | Judge | Set |');
  });
});
