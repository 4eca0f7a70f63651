import { describe, expect, it } from 'vitest';
import type { EndOfRunSummary, SummaryEntry } from '../report/run-summary.js';
import { formatSummary } from './summary-text.js';

const cell = (label: string, value: number) => ({ label, value, ci: { lo: 50, hi: 98 }, n: 10 });

const entry = (model: string): SummaryEntry => ({
  model,
  judge: 'openai:gpt-4o-mini',
  dirs: [`runs/board/${model.replace(':', '-')}`],
  headline: [
    cell('Holistic CR', 90),
    cell('Step-wise CR', 91.7),
    cell('Tool-extraneous CR', 88.2),
    cell('Tool-broken Replace', 40),
    cell('Unsolvable pass', 70),
  ],
  outcomes: { judgements: 69, ok: 67, error: 0, parse_error: 2, judge_error: 0, correct: 60 },
  top_failures: [{ reason: 'parse: no JSON object found in the answer', count: 2, example: '' }],
  usage: [],
  cost_usd: 0.4471,
  cost_per_correct_usd: 0.0075,
  cache_hits: 0,
  retries: 0,
  rate_limited: 0,
});

const summary: EndOfRunSummary = {
  command: 'run',
  status: 'complete',
  wall_ms: 1400,
  entries: [entry('openai:gpt-4o'), entry('anthropic:claude-sonnet-4-5')],
  report_html: 'runs/board/leaderboard.html',
  report_md: 'runs/board/leaderboard.md',
  view_command: 'npx apb view runs/board',
  notes: ['The rules judge is a structural judge built from deterministic checks.'],
};

describe('formatSummary', () => {
  it('keeps the headline table when there is no width (piped output)', () => {
    const lines = formatSummary(summary);
    expect(
      lines.some((line) => line.includes('Holistic CR %') && line.includes('Unsolvable pass %')),
    ).toBe(true);
  });

  it('turns a table wider than the terminal into one block per model, every number shown', () => {
    const lines = formatSummary(summary, 80);
    const table = formatSummary(summary).find((line) => line.includes('Holistic CR %'))!;
    expect(table.length).toBeGreaterThan(80);
    for (const line of lines.slice(0, 13)) expect(line.length).toBeLessThanOrEqual(80);
    const gpt = lines.indexOf('  openai:gpt-4o');
    expect(gpt).toBeGreaterThan(0);
    expect(lines[gpt + 1]).toMatch(/^ {4}Holistic CR % +90\.0 \[50\.0–98\.0\] n=10$/);
    expect(lines[gpt + 5]).toMatch(/^ {4}Unsolvable pass % +70\.0/);
  });
});
