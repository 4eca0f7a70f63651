/**
 * `--fleet-limits` measured, not only computed (issue 24's acceptance): a shard of a three-shard
 * fleet given `--rpm 600` for the whole fleet starts its requests 300 ms apart (200 a minute)
 * against a loopback fake endpoint, and says so; without the flag the same shard
 * paces at the full 600.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';

let server: FakeServer;
let arrivals: number[] = [];
const plan = JSON.stringify({
  plan: 'look it up',
  tool_chain: [{ name: 'search', parameter_description: {} }],
});
beforeAll(async () => {
  server = await startFakeServer({ retainRequests: false });
});
afterAll(() => server.close());

/** One shard of three, `extra` flags added; the request start times it produced, as gaps in ms. */
async function shardGaps(extra: string[]): Promise<{ gaps: number[]; stderr: string }> {
  arrivals = [];
  server.configure({
    respond: () => {
      arrivals.push(performance.now());
      return { text: plan };
    },
  });
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-fleet-limits-')), 'run');
  const result = await runCli([
    'run',
    '--model',
    'openai-compatible:fleet-model',
    '--base-url',
    server.baseUrl('openai'),
    '--shard',
    '1/3',
    '--rpm',
    '600',
    '--concurrency',
    '6',
    '--no-cache',
    '--out',
    out,
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const sorted = [...arrivals].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((time, index) => time - sorted[index]!);
  return { gaps, stderr: result.stderr };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** The sums of every `width` consecutive gaps. */
const spans = (gaps: number[], width: number) =>
  gaps.slice(width - 1).map((_, index) => mean(gaps.slice(index, index + width)) * width);

describe('--fleet-limits --rpm 600 over three shards', () => {
  it('paces each shard at 200 requests a minute (300 ms apart); without it at 600', async () => {
    const fleet = await shardGaps(['--fleet-limits']);
    expect(fleet.gaps.length).toBeGreaterThanOrEqual(10);
    // 60 000 / 200 = 300 ms between starts. Arrivals jitter by up to a few hundred ms on a loaded
    // machine (a late first request shortens the mean), so the pace is read loosely: the mean gap
    // near 300, and no four gaps shorter than 800 ms (at 600 a minute they span 400).
    expect(mean(fleet.gaps)).toBeGreaterThanOrEqual(260);
    expect(mean(fleet.gaps)).toBeLessThan(360);
    expect(Math.min(...spans(fleet.gaps, 4))).toBeGreaterThanOrEqual(800);
    expect(fleet.stderr).toContain(
      "apb: --fleet-limits: this shard's share (1/3): --rpm 200, --concurrency 2",
    );
    const alone = await shardGaps([]);
    expect(mean(alone.gaps)).toBeGreaterThanOrEqual(70);
    expect(mean(alone.gaps)).toBeLessThan(200);
  }, 90_000);
});
