import { describe, expect, it } from 'vitest';
import { fakeRow } from '../metrics/fake-rows.fixture.js';
import { table1Row } from '../metrics/table1.js';
import type { Manifest } from '../pipeline/manifest.js';
import { failureReasons } from './report-data.js';
import { headlineCells } from './scorecard.js';
import { endpointsOf, percentile, usageRow } from './usage.js';
import { usd } from './numbers.js';

const call = (latencyMs: number | null, attempts = 1, cached = false) => ({
  latencyMs,
  attempts,
  cached,
});
const totals = (
  calls: number,
  cached: number,
  input: number,
  output: number,
  cost: number | null,
) => ({ calls, cached_calls: cached, input_tokens: input, output_tokens: output, cost_usd: cost });

describe('usage and cost', () => {
  it('takes nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([7], 0.95)).toBe(7);
    // 1..20: p50 = the 10th value, p95 = the 19th.
    const values = Array.from({ length: 20 }, (_, index) => 20 - index);
    expect(percentile(values, 0.5)).toBe(10);
    expect(percentile(values, 0.95)).toBe(19);
  });

  it("sums the manifests' roles, costs per correct case, and counts latency over uncached calls, retries and cache hits (hand-computed)", () => {
    const rows = [
      fakeRow({ id: 'a', calls: { planner: call(100, 1), judge: call(40, 3) } }),
      fakeRow({ id: 'b', calls: { planner: call(300, 2), judge: call(60, 1) } }),
      fakeRow({
        id: 'c',
        correct: false,
        calls: { planner: call(null, 0, true), judge: call(null, 0, true) },
      }),
    ];
    const manifest = (
      planner: ReturnType<typeof totals>,
      judge: ReturnType<typeof totals>,
      rateLimited: number,
    ) =>
      ({
        identity: { tested_model: 'model-a' },
        usage: { planner, judge },
        endpoints: [
          {
            endpoint: 'openai http://x',
            requests: 9,
            ok: 8,
            rate_limited: rateLimited,
            failed: 0,
            max_in_flight: 2,
            limit: 2,
            min_limit: 1,
            set_aside: 0,
          },
        ],
      }) as unknown as Manifest;
    const row = usageRow('model-a', 'judge-x', rows, 2, [
      manifest(totals(2, 1, 1000, 200, 0.01), totals(2, 1, 500, 50, 0.002), 3),
      manifest(totals(1, 0, 400, 100, 0.004), totals(1, 0, 100, 10, 0.001), 1),
    ]);
    expect(row.roles).toEqual(
      [
        {
          role: 'planner',
          calls: 3,
          cached_calls: 1,
          input_tokens: 1400,
          output_tokens: 300,
          cost_usd: 0.014,
        },
        {
          role: 'judge',
          calls: 3,
          cached_calls: 1,
          input_tokens: 600,
          output_tokens: 60,
          cost_usd: 0.003,
        },
      ].map((entry) => ({ ...entry, cost_usd: expect.closeTo(entry.cost_usd, 12) })),
    );
    expect(row.cost_usd).toBeCloseTo(0.017, 12);
    expect(row.cost_per_correct_usd).toBeCloseTo(0.0085, 12);
    expect(row.latency.planner).toEqual({ p50: 100, p95: 300, n: 2 });
    expect(row.latency.judge).toEqual({ p50: 40, p95: 60, n: 2 });
    expect(row.retries).toBe(3); // judge a: 2 retries, planner b: 1
    expect(row.cache_hits).toBe(2);
    expect(row.rate_limited).toBe(4);
    expect(row.source).toBe('manifest');
  });

  it('without a manifest sums tokens from the lines and leaves the cost unknown', () => {
    const rows = [
      fakeRow({
        usage: { planner: { inputTokens: 10, outputTokens: 5 }, judge: null },
        calls: { planner: call(5), judge: null },
      }),
    ];
    const row = usageRow('model-a', 'judge-x', rows, 1, []);
    expect(row).toMatchObject({
      source: 'lines',
      cost_usd: null,
      cost_per_correct_usd: null,
      rate_limited: null,
    });
    expect(row.roles[0]).toEqual({
      role: 'planner',
      calls: 1,
      cached_calls: 0,
      input_tokens: 10,
      output_tokens: 5,
      cost_usd: null,
    });
  });

  it('keeps one record per endpoint (the fullest: runs of one command share a pool)', () => {
    const entry = (requests: number) => ({
      endpoint: 'e',
      requests,
      ok: requests,
      rate_limited: 0,
      failed: 0,
      max_in_flight: 1,
      limit: 1,
      min_limit: 1,
      set_aside: 0,
    });
    expect(
      endpointsOf([
        { endpoints: [entry(3)] } as unknown as Manifest,
        null,
        { endpoints: [entry(7)] } as unknown as Manifest,
      ]),
    ).toEqual([entry(7)]);
  });

  it('formats dollars with four decimals below 100 and two above', () => {
    expect([usd(0.40095), usd(0), usd(1234.567), usd(null)]).toEqual([
      '$0.4010',
      '$0.0000',
      '$1,234.57',
      '–',
    ]);
  });
});

describe('scorecard and failure reasons', () => {
  it("gives Table 1's five headline numbers with Wilson intervals (Replace share, pass over every unsolvable type)", () => {
    const rows = [
      fakeRow({ id: 'h1' }),
      fakeRow({ id: 'h2', correct: false }),
      fakeRow({ id: 'b1', facets: { split: 'step_wise_tool_broken' }, behavior: 'replace' }),
      fakeRow({ id: 'b2', facets: { split: 'step_wise_tool_broken' }, behavior: 'alter' }),
      fakeRow({
        id: 'b3',
        facets: { split: 'step_wise_tool_broken' },
        behavior: 'retry',
        correct: false,
      }),
      fakeRow({ id: 'b4', facets: { split: 'step_wise_tool_broken' }, behavior: 'replace' }),
      fakeRow({
        id: 'u1',
        facets: { split: 'holistic_unsolvable', unsolvableType: 'tool_removal' },
      }),
      fakeRow({
        id: 'u2',
        facets: { split: 'holistic_unsolvable', unsolvableType: 'visual_missing' },
        correct: false,
      }),
      fakeRow({
        id: 'u3',
        facets: { split: 'holistic_unsolvable', unsolvableType: 'visual_missing' },
      }),
    ];
    const cells = headlineCells(table1Row('model-a', 'judge-x', rows));
    const byKey = Object.fromEntries(cells.map((cell) => [cell.key, cell]));
    expect(byKey.holistic).toMatchObject({ value: 50, n: 2 });
    expect(byKey.step_wise).toMatchObject({ value: null, n: 0 });
    expect(byKey.tool_broken).toMatchObject({ value: 50, n: 4 });
    expect(byKey.tool_broken!.ci!.lo).toBeCloseTo(15.0, 0);
    expect(byKey.unsolvable!.value).toBeCloseTo(200 / 3, 10);
    expect(byKey.unsolvable).toMatchObject({ n: 3 });
  });

  it('groups failure reasons, most frequent first, with one example each', () => {
    const failure = (key: string, message: string) => ({ failure: { key, message } });
    const rows = [
      fakeRow(failure('planner client 404', 'model x not found')),
      fakeRow(failure('judge unreadable', 'no JSON')),
      fakeRow(failure('judge unreadable', 'no JSON either')),
      fakeRow(),
    ];
    expect(failureReasons(rows)).toEqual([
      { reason: 'judge unreadable', count: 2, example: 'no JSON' },
      { reason: 'planner client 404', count: 1, example: 'model x not found' },
    ]);
  });
});

describe('case browser order', () => {
  it('lists cases in dataset order (split, then line in the split file), whatever order the runs wrote them in', async () => {
    const { buildCaseBrowser } = await import('./cases.js');
    const item = (
      id: string,
      split: 'holistic_planning' | 'step_wise_planning',
      line: number | null,
      model = 'model-a',
    ) => ({
      line: { id, split, query: id },
      row: fakeRow({ id, model, facets: { split }, datasetLine: line }),
    });
    // Completion order, as a concurrent run writes it.
    const run = [
      item('c', 'holistic_planning', 3),
      item('sw', 'step_wise_planning', 1),
      item('a', 'holistic_planning', 1),
      item('b', 'holistic_planning', 2),
    ];
    const other = [
      item('b', 'holistic_planning', 2, 'model-b'),
      item('a', 'holistic_planning', 1, 'model-b'),
    ];
    const data = buildCaseBrowser([run, other]);
    expect(data.rows.c.map((c) => data.cases.id[c])).toEqual(['a', 'a', 'b', 'b', 'c', 'sw']);
    // Lines without a recorded position (the official harness) keep first-seen order.
    const official = buildCaseBrowser([
      [item('y', 'holistic_planning', null), item('x', 'holistic_planning', null)],
    ]);
    expect(official.rows.c.map((c) => official.cases.id[c])).toEqual(['y', 'x']);
  });
});
