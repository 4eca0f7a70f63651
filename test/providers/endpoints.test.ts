/**
 * Several endpoints of one model over real HTTP (three loopback fake servers): calls balanced by
 * load, each endpoint with its own adaptive limit, a failing endpoint set aside and probed later.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { endpointStats, HealthPool } from '../../src/providers/endpoints.js';
import { LimiterPool } from '../../src/providers/limit.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { makeRequest } from './helpers.js';

let servers: FakeServer[] = [];
beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map(() => startFakeServer({ retainRequests: false })));
});
afterAll(() => Promise.all(servers.map((server) => server.close())));
beforeEach(() => servers.forEach((server) => server.reset()));

/** A clock for the endpoints' health that moves only when told (so no test waits on wall time). */
const clock = { time: 0, now: () => clock.time, sleep: async () => {} };

function fleet(count: number, options: { concurrency?: number; setAsideMs?: number } = {}) {
  const limiters = new LimiterPool();
  const health = new HealthPool({
    setAsideMs: options.setAsideMs ?? 60_000,
    failuresToSetAside: 3,
    clock,
  });
  const provider = buildProviderStack('openai-compatible:fleet-model', {
    baseUrl: servers.slice(0, count).map((server) => server.baseUrl('openai')),
    concurrency: options.concurrency ?? 8,
    maxRetries: 8,
    timeoutMs: 10_000,
    limiters,
    health,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  return { provider, stats: () => endpointStats(limiters, health) };
}

/** Sends `total` requests from `callers` concurrent loops; every one must succeed. */
async function load(
  provider: ReturnType<typeof fleet>['provider'],
  total: number,
  callers: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < total) {
        const repeat = next++;
        const result = await provider.generate(makeRequest({ repeat }));
        expect(result.text).toBe('ok');
      }
    }),
  );
}

describe('several endpoints of one model', () => {
  it('balances by requests in flight: a faster endpoint takes more, no endpoint exceeds its own limit', async () => {
    servers[0]!.configure({ latencyMs: 20 });
    servers[1]!.configure({ latencyMs: 120 });
    const { provider, stats } = fleet(2, { concurrency: 6 });
    await load(provider, 240, 12);
    const [fast, slow] = [servers[0]!.count(), servers[1]!.count()];
    expect(fast + slow).toBe(240);
    expect(slow).toBeGreaterThan(10);
    expect(fast).toBeGreaterThan(2 * slow);
    for (const server of servers.slice(0, 2)) expect(server.maxInFlight).toBeLessThanOrEqual(6);
    expect(stats().map((entry) => [entry.requests, entry.ok])).toEqual([
      [fast, fast],
      [slow, slow],
    ]);
  });

  it('sets a failing endpoint aside, probes it one request at a time, and takes it back once it answers', async () => {
    for (const server of servers) server.configure({ latencyMs: 5 });
    servers[2]!.configure({ latencyMs: 5, respond: () => replies.status(503) });
    const { provider, stats } = fleet(3, { setAsideMs: 300 });
    await load(provider, 90, 6);
    const broken = stats()[2]!;
    expect(broken).toMatchObject({ ok: 0, set_aside: 1 });
    // Three failures set it aside (with the few requests already in flight); nothing more reached
    // it while it was aside.
    const reached = servers[2]!.count();
    expect(reached).toBeGreaterThanOrEqual(3);
    expect(reached).toBeLessThanOrEqual(6);
    await load(provider, 30, 6);
    expect(servers[2]!.count()).toBe(reached);
    clock.time += 350;
    await load(provider, 30, 6);
    // Back on probation: one request, which failed, so it is aside again (for twice as long).
    expect(servers[2]!.count()).toBe(reached + 1);
    expect(stats()[2]!.set_aside).toBe(2);
    servers[2]!.configure({ respond: undefined });
    clock.time += 650;
    await load(provider, 90, 6);
    expect(stats()[2]!.ok).toBeGreaterThan(10);
    expect(stats()[2]!.set_aside).toBe(2);
  });

  it("keeps adaptive concurrency per endpoint: 429s lower one endpoint's limit, the other keeps its own", async () => {
    for (const server of servers) server.configure({ latencyMs: 30 });
    let limited = 0;
    servers[0]!.configure({
      latencyMs: 30,
      respond: () => (limited++ < 8 ? replies.rateLimited({ retryAfterMs: 5 }) : { text: 'ok' }),
    });
    const { provider, stats } = fleet(2, { concurrency: 8 });
    await load(provider, 120, 16);
    const [first, second] = stats();
    expect(first!.rate_limited).toBe(8);
    expect(first!.min_limit).toBeLessThan(8);
    expect(second).toMatchObject({ rate_limited: 0, min_limit: 8, limit: 8 });
    expect(first!.ok + second!.ok).toBe(120);
  });

  it('apb run --base-url A --base-url B: one model on two endpoints, both in the manifest and the summary', async () => {
    // A readable plan: a run in which no answer is usable exits 1 (issue 12), which is not what this test is about.
    const plan = JSON.stringify({
      plan: 'look it up',
      tool_chain: [{ name: 'search', parameter_description: {} }],
    });
    for (const server of servers)
      server.configure({ latencyMs: 5, respond: () => ({ text: plan }) });
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-fleet-')), 'run');
    const [a, b] = [servers[0]!.baseUrl('openai'), servers[1]!.baseUrl('openai')];
    const result = await runCli([
      'run',
      '--splits',
      'holistic_planning',
      '--model',
      'openai-compatible:fleet',
      '--base-url',
      a,
      '--base-url',
      b,
      '--concurrency',
      '4',
      '--no-cache',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.identity.base_url).toEqual([a, b]);
    expect(manifest.endpoints.map((entry: { endpoint: string }) => entry.endpoint)).toEqual([
      `openai-compatible ${a}`,
      `openai-compatible ${b}`,
    ]);
    const counts = manifest.endpoints.map((entry: { ok: number }) => entry.ok);
    expect(counts[0] + counts[1]).toBe(manifest.counts.cases);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(result.stderr).toContain(`apb: endpoint openai-compatible ${b}:`);
    // Another set of endpoints is another run: resuming with one of them is refused.
    const other = await runCli([
      'run',
      '--splits',
      'holistic_planning',
      '--model',
      'openai-compatible:fleet',
      '--base-url',
      a,
      '--no-cache',
      '--out',
      out,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('base_url');
  }, 60_000);
});
