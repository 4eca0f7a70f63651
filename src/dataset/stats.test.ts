import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetStats } from './stats.js';
import { countsText, renderStatsMarkdown } from './stats-markdown.js';
import { loadReleaseStats } from './stats-release.js';

const DIR = path.resolve('test/fixtures/datasets/tau2-bench-apb');
/** The raw lines of one split, read without the dataset reader: an independent count. */
const raw = (split: string): Array<Record<string, any>> =>
  readFileSync(path.join(DIR, 'data', `${split}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
const tally = (values: unknown[]) => {
  const counts: Record<string, number> = {};
  for (const value of values)
    if (value !== null) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
};

describe('datasetStats', async () => {
  const stats = await datasetStats(DIR);
  const split = (name: string) => stats.splits.find((entry) => entry.split === name)!;

  it('counts cases, horizons, levels, unsolvable types and tools as the raw records say', () => {
    expect(stats.cases).toBe(769);
    expect(stats.invalid).toBe(0);
    const stepWise = raw('step_wise_planning');
    expect(split('step_wise_planning').cases).toBe(stepWise.length);
    expect(split('step_wise_planning').horizons).toEqual(
      tally(stepWise.map((line) => line.prediction_horizon)),
    );
    const extraneous = raw('holistic_tool_extraneous');
    expect(split('holistic_tool_extraneous').levels).toEqual(
      tally(extraneous.map((line) => JSON.parse(line.extraneous_tool_names_json).length)),
    );
    const unsolvable = raw('holistic_unsolvable');
    expect(split('holistic_unsolvable').unsolvable_types).toEqual(
      tally(unsolvable.map((line) => line.unsolvable_type)),
    );
    const holistic = raw('holistic_planning');
    const tools = holistic.map((line) => JSON.parse(line.tool_names_json).length);
    expect(split('holistic_planning').avg_tools).toBeCloseTo(
      tools.reduce((a, b) => a + b, 0) / tools.length,
      10,
    );
    const chain = holistic.map((line) => JSON.parse(line.tool_chain_json).length);
    expect(split('holistic_planning').avg_steps).toBeCloseTo(
      chain.reduce((a, b) => a + b, 0) / chain.length,
      10,
    );
    const sources = split('holistic_planning').sources;
    expect(Object.values(sources).reduce((sum, entry) => sum + entry.cases, 0)).toBe(
      holistic.length,
    );
  });

  it('says, per tool-broken case, whether the broken tool worked earlier in the prefix', () => {
    const broken = raw('step_wise_tool_broken');
    const earlier = broken.filter(
      (line) =>
        JSON.parse(line.trajectory_prefix_json).filter(
          (step: { tool?: string }) => step.tool === line.broken_tool_name,
        ).length >= 2,
    ).length;
    expect(split('step_wise_tool_broken').broken_tool_used_earlier).toBe(earlier);
    expect(split('holistic_planning').broken_tool_used_earlier).toBeNull();
  });

  it("renders each split beside the release's figures, and a second dataset in its own column", () => {
    const release = loadReleaseStats();
    const page = renderStatsMarkdown(
      [
        { ...stats, dir: 'a' },
        { ...stats, dir: 'b' },
      ],
      release,
    );
    expect(page).toContain('| statistic | a | b | release (paper) |');
    expect(page).toContain('| cases | 179 | 179 | 900 |');
    expect(page).toContain(
      `| horizons | ${countsText(split('step_wise_planning').horizons, 179)} | ${countsText(split('step_wise_planning').horizons, 179)} | 1: 300 (33.3 %), 2: 300 (33.3 %), 3: 300 (33.3 %) |`,
    );
    expect(page).toContain('| Real-World | 370 | 13.37 | 170 | 137 | 63 |');
    expect(page).toContain('Per source (b):');
  });
});

describe('countsText', () => {
  it('orders numeric keys numerically and gives each share of the total', () => {
    expect(countsText({ '10': 1, '2': 3 }, 4)).toBe('2: 3 (75.0 %), 10: 1 (25.0 %)');
    expect(countsText({}, 4)).toBe('—');
  });
});
