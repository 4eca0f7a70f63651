import { describe, expect, it } from 'vitest';
import { fakeReport } from '../fake-lines.fixture.js';
import { fakeLeaderboard } from '../fake-leaderboard.fixture.js';
import { lineChart, stackedShareChart } from './charts.js';
import { renderFigures } from './figures.js';
import { ticks } from './svg.js';

describe('figures', () => {
  it('draws the paper figures the tables can fill, each with a title, a description and value tooltips', () => {
    const figures = renderFigures(fakeReport([{ dir: 'a', specs: fakeLeaderboard() }]).tables);
    expect(figures.map((figure) => figure.id)).toEqual([
      'fig3',
      'fig4-holistic',
      'fig4-step-wise',
      'fig5',
      'fig6',
      'fig58',
      'fig59',
    ]);
    for (const figure of figures) {
      expect(figure.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(figure.svg).toMatch(/<title id="[^"]+-title">[^<]+<\/title>/);
      expect(figure.svg).toMatch(/<desc id="[^"]+-desc">[^<]+<\/desc>/);
      expect(figure.svg).toMatch(
        /<(rect|circle|g)[^>]*>(<rect[^>]*\/>)?(<text[^>]*>[^<]*<\/text>)?<title>[^<]+: [^<]+<\/title>/,
      );
    }
  });

  it('draws refinement as base against refined per method and model, one chart per regime (Table 4)', () => {
    const base = Array.from({ length: 4 }, (_, index) => ({
      split: 'holistic_planning' as const,
      id: `h${index}`,
      model: 'm1',
      correct: index < 1,
    }));
    const refined = base.map((spec, index) => ({
      ...spec,
      correct: index < 3,
      refinement: { mode: 'critic' as const, taxonomy: true, critic: 'c' },
    }));
    const figures = renderFigures(
      fakeReport([{ dir: 'a', specs: [...base, ...refined] }]).tables,
    ).filter((figure) => figure.id.startsWith('fig-refine'));
    expect(figures.map((figure) => figure.id)).toEqual(['fig-refine-holistic']);
    // base 1/4 = 25 %, refined 3/4 = 75 %
    expect(figures[0]!.svg).toContain(
      '<title>m1: base · Critic_R+: 25.0 % (n 4; 2 turned correct, 0 turned incorrect)</title>',
    );
    expect(figures[0]!.svg).toContain('<title>m1: refined · Critic_R+: 75.0 %');
  });

  it('marks the overall average of distractor use with a dashed red line (Fig. 4)', () => {
    const svg = lineChart({
      id: 'f',
      title: 'T',
      description: 'D',
      categories: ['2', '4'],
      series: [{ name: 'm', values: [1, 3] }],
      xLabel: 'x',
      yLabel: 'y',
      format: String,
      reference: { value: 2, label: 'overall average (2.0)' },
    });
    expect(svg).toContain(
      'stroke="#D62728" stroke-width="2" stroke-dasharray="6 4"><title>overall average (2.0): 2</title>',
    );
    expect(svg).toContain('<title>m · 4: 3</title>');
  });

  it('escapes names in labels and tooltips', () => {
    const svg = stackedShareChart({
      id: 'f',
      title: 'T',
      description: 'D',
      rows: [{ label: '<script>x</script>', shares: [100] }],
      segments: ['E1'],
      xLabel: 'x',
    });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;x&lt;/script&gt;');
  });

  it('chooses readable ticks', () => {
    expect(ticks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(ticks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(ticks(0)).toEqual([0, 1]);
  });
});
