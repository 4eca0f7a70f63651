/**
 * Cache, cost, repeats and `--retry-errors` over real HTTP: `--no-cache` really bypasses the
 * cache; a second run answers from it (no request, `cached: true`, no tokens or cost); usage and
 * cost per role land in the manifest; K repeats are K distinct requests and give pass@k / pass^k;
 * `--retry-errors` asks again only the cases whose planner call failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costFor } from '../../src/providers/cost.js';
import { replies } from '../fake-server/index.js';
import {
  caseKey,
  cli,
  readJsonl,
  readManifest,
  SECRET_KEY,
  tempDir,
  useScriptedServer,
} from './helpers.js';

const fake = useScriptedServer();

const gpt4o = (out: string, extra: string[] = []) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--concurrency',
  '8',
  ...extra,
];

describe('response cache and cost accounting', () => {
  it('--no-cache neither reads nor writes; a cached rerun sends nothing and costs nothing', async () => {
    const cacheDir = path.join(tempDir(), 'cache');
    const env = { OPENAI_API_KEY: SECRET_KEY, APB_CACHE_DIR: cacheDir };
    const cases = fake.script.cases.length;

    const bypass = path.join(tempDir(), 'bypass');
    expect((await cli(gpt4o(bypass, ['--no-cache']), env)).code).toBe(0);
    expect(fake.server.count()).toBe(cases);
    expect(existsSync(path.join(cacheDir, 'responses.sqlite'))).toBe(false);

    const fill = path.join(tempDir(), 'fill');
    expect((await cli(gpt4o(fill), env)).code).toBe(0);
    expect(fake.server.count()).toBe(2 * cases);
    const filled = readManifest(fill);
    const predictions = readJsonl(path.join(fill, 'predictions.jsonl'));
    const expectedCost = predictions.reduce(
      (sum, line) => sum + costFor({ provider: 'openai', model: 'gpt-4o' }, line.apb.usage)!,
      0,
    );
    expect(filled.usage).toMatchObject({
      planner: {
        calls: cases,
        cached_calls: 0,
        input_tokens: predictions.reduce((sum, line) => sum + line.apb.usage.inputTokens, 0),
      },
      judge: { calls: 0, cost_usd: 0 },
      prices_as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(filled.usage.planner.cost_usd).toBeCloseTo(expectedCost, 12);
    expect(filled.usage.planner.cost_usd).toBeGreaterThan(0);

    const hit = path.join(tempDir(), 'hit');
    expect((await cli(gpt4o(hit), env)).code).toBe(0);
    expect(fake.server.count()).toBe(2 * cases);
    const cached = readJsonl(path.join(hit, 'predictions.jsonl'));
    expect(
      cached.every(
        (line) => line.apb.cached === true && line.apb.latency_ms === 0 && line.apb.attempts === 0,
      ),
    ).toBe(true);
    expect(readManifest(hit).usage.planner).toEqual({
      calls: cases,
      cached_calls: cases,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    });
    // Same answers from the cache as from the fake.server.
    const answers = (lines: Array<Record<string, any>>) =>
      new Map(lines.map((line) => [caseKey(line), line.model_response]));
    expect(answers(cached)).toEqual(answers(predictions));
  }, 60_000);

  it('a model without a price records cost null, baselines and the rules judge cost 0', async () => {
    const local = path.join(tempDir(), 'local');
    expect(
      (
        await cli([
          'run',
          '--model',
          'openai-compatible:local-model',
          '--base-url',
          fake.server.baseUrl('openai'),
          '--out',
          local,
          '--no-cache',
          '--limit',
          '1',
        ])
      ).code,
    ).toBe(0);
    expect(readManifest(local).usage).toMatchObject({
      planner: { calls: 7, cost_usd: null },
      judge: { calls: 0, cost_usd: 0 },
    });
    const baseline = path.join(tempDir(), 'baseline');
    expect((await cli(['run', '--out', baseline, '--limit', '1'])).code).toBe(0);
    expect(readManifest(baseline).usage).toMatchObject({
      planner: { calls: 7, input_tokens: 0, cost_usd: 0 },
      judge: { cost_usd: 0 },
    });
  }, 60_000);
});

describe('--repeats', () => {
  it('sends each case K times under distinct cache keys, records K lines each, and scores pass@k and pass^k', async () => {
    // Each case's second request gets prose, so its repeats disagree and pass@3 > pass^3.
    const seen = new Map<string, number>();
    fake.server.configure({
      respond: (request) => {
        const key = fake.script.caseOf(request)!;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        return seen.get(key) === 2 ? replies.prose() : fake.script.respond(request);
      },
    });
    const cacheDir = path.join(tempDir(), 'cache');
    const args = (out: string) => [
      'run',
      '--model',
      'openai-compatible:fake-planner',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--out',
      out,
      '--repeats',
      '3',
      '--concurrency',
      '8',
    ];
    const out = path.join(tempDir(), 'run');
    const result = await cli(args(out), { APB_CACHE_DIR: cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const cases = fake.script.cases.length;
    expect(fake.server.count()).toBe(3 * cases);
    expect(
      [...fake.script.countByCase(fake.server.requests).values()].every((count) => count === 3),
    ).toBe(true);
    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(judgements).toHaveLength(3 * cases);
    expect(
      new Set(judgements.map((line) => `${caseKey(line)}#${line.apb.prediction.repeat}`)).size,
    ).toBe(3 * cases);
    expect(new Set(judgements.map((line) => line.apb.prediction.fingerprint)).size).toBe(3 * cases);

    const scores = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    const rows = scores.tables.repeats.filter((row: any) => row.split === 'holistic_planning');
    expect(rows.map((row: any) => row.k)).toEqual([1, 2, 3]);
    const k3 = rows.find((row: any) => row.k === 3);
    expect(k3.cases).toBe(
      fake.script.cases.filter((item) => item.split === 'holistic_planning').length,
    );
    expect(k3.pass_hat_k).toBe(0);
    expect(k3.pass_at_k).toBeGreaterThan(k3.pass_hat_k);

    // Every repeat is its own cache entry: a fresh directory is answered entirely from the cache.
    const again = await cli(args(path.join(tempDir(), 'again')), { APB_CACHE_DIR: cacheDir });
    expect(again.code).toBe(0);
    expect(fake.server.count()).toBe(3 * cases);
  }, 60_000);
});

describe('--retry-errors', () => {
  it('asks again only the cases whose planner call failed; parse failures and successes are kept', async () => {
    const failing = new Set(fake.script.cases.slice(0, 5).map(caseKey));
    // Each failure names its case: the same 400 for the first calls of a run is a systematic failure that stops it (issue 12).
    fake.server.configure({
      respond: (request) =>
        failing.has(fake.script.caseOf(request)!)
          ? replies.status(400, `bad request for case ${fake.script.caseOf(request)}`)
          : fake.script.respond(request),
    });
    const out = path.join(tempDir(), 'run');
    const args = (extra: string[] = []) => [
      'run',
      '--model',
      'openai-compatible:fake-planner',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--out',
      out,
      '--no-cache',
      ...extra,
    ];
    expect((await cli(args())).code).toBe(0);
    expect(readManifest(out).counts.predictions.error).toBe(5);
    const first = fake.server.count();

    fake.server.configure({ respond: (request) => fake.script.respond(request) });
    expect((await cli(args())).code).toBe(0);
    expect(fake.server.count()).toBe(first);

    const retried = await cli(args(['--retry-errors']));
    expect(retried.code).toBe(0);
    const asked = fake.script.countByCase(fake.server.requests.slice(first));
    expect(new Set(asked.keys())).toEqual(failing);
    expect([...asked.values()].every((count) => count === 1)).toBe(true);
    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(new Set(judgements.map(caseKey)).size).toBe(fake.script.cases.length);
    expect(judgements).toHaveLength(fake.script.cases.length);
    expect(readManifest(out).counts.predictions).toMatchObject({ error: 0, parse_error: 2 });
  }, 60_000);
});
