/**
 * Runs that stop on purpose, over real HTTP: an authentication failure stops at once (exit 1, no
 * further request, the key variable named, the key nowhere); `--max-cost` stops starting calls and
 * resumes later; `--dry-run` estimates without calling or writing anything.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caseKey,
  cli,
  filesUnder,
  JUDGE_MODEL,
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
  '--no-cache',
  ...extra,
];

describe('authentication failure', () => {
  it('stops the run at once: exit 1, one request at concurrency 1, the provider and key variable named, the key nowhere', async () => {
    fake.server.configure({ requireKey: 'sk-the-right-key-0000000000' });
    const out = path.join(tempDir(), 'run');
    const result = await cli(gpt4o(out, ['--concurrency', '1']), { OPENAI_API_KEY: SECRET_KEY });
    expect(result.code).toBe(1);
    expect(fake.server.count()).toBe(1);
    expect(result.stderr).toMatch(/openai:gpt-4o: HTTP 401/);
    expect(result.stderr).toContain('OPENAI_API_KEY');
    expect(result.stderr).toContain('run stopped at the first authentication failure');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // The fake echoes the key it got in its 401 body: it must be masked everywhere.
    expect(result.stdout + result.stderr).not.toContain(SECRET_KEY);
    for (const file of filesUnder(out))
      expect(readFileSync(file).includes(SECRET_KEY), file).toBe(false);
    expect(readManifest(out)).toMatchObject({
      status: 'failed',
      counts: { judgements: { ok: 0 } },
    });
  }, 30_000);

  it('sends no request after the first 401 at concurrency 8 (only those already in flight)', async () => {
    fake.server.configure({ requireKey: 'sk-the-right-key-0000000000', latencyMs: 100 });
    const result = await cli(gpt4o(path.join(tempDir(), 'run'), ['--concurrency', '8']), {
      OPENAI_API_KEY: SECRET_KEY,
    });
    expect(result.code).toBe(1);
    expect(fake.server.count()).toBeLessThanOrEqual(8);
    expect(result.stderr).not.toContain(SECRET_KEY);
  }, 30_000);
});

describe('--max-cost', () => {
  it('stops starting calls once spent + in flight would pass the budget, exits 0, and a rerun with more budget finishes', async () => {
    const out = path.join(tempDir(), 'run');
    const stopped = await cli(gpt4o(out, ['--concurrency', '2', '--max-cost', '0.05']), {
      OPENAI_API_KEY: SECRET_KEY,
    });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain('stopped by --max-cost 0.05 USD');
    const manifest = readManifest(out);
    expect(manifest).toMatchObject({
      status: 'stopped-budget',
      budget: { max_cost_usd: 0.05, stopped: true },
    });
    expect(manifest.usage.planner.cost_usd).toBeGreaterThan(0);
    expect(manifest.usage.planner.cost_usd).toBeLessThanOrEqual(0.05);
    expect(manifest.budget.spent_usd).toBeCloseTo(manifest.usage.planner.cost_usd, 10);
    const finished = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(fake.script.cases.length);
    expect(fake.server.count()).toBe(finished.length);

    const requestsBefore = fake.server.count();
    const resumed = await cli(gpt4o(out, ['--concurrency', '2', '--max-cost', '100']), {
      OPENAI_API_KEY: SECRET_KEY,
    });
    expect(resumed.code).toBe(0);
    expect(readManifest(out).status).toBe('complete');
    expect(readJsonl(path.join(out, 'judgements.jsonl'))).toHaveLength(fake.script.cases.length);
    const again = fake.script.countByCase(fake.server.requests.slice(requestsBefore));
    expect(finished.map(caseKey).filter((key) => again.has(key))).toEqual([]);
  }, 60_000);

  it('refuses a model without a price up front (exit 2, no request)', async () => {
    const out = path.join(tempDir(), 'run');
    const result = await cli([
      'run',
      '--model',
      'openai-compatible:local-model',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--out',
      out,
      '--max-cost',
      '5',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--max-cost needs a price for openai-compatible:local-model.*data\/prices\.json/,
    );
    expect(fake.server.count()).toBe(0);
    expect(existsSync(out)).toBe(false);
  });
});

describe('--dry-run', () => {
  it('prints calls, tokens and cost per split and in total; calls nothing, writes nothing, needs no key', async () => {
    const out = path.join(tempDir(), 'run');
    const cacheDir = path.join(tempDir(), 'cache');
    const result = await cli(
      [
        'run',
        '--dry-run',
        '--model',
        'openai:gpt-4o',
        '--base-url',
        fake.server.baseUrl('openai'),
        '--judge',
        `openai-compatible:${JUDGE_MODEL}`,
        '--judge-base-url',
        fake.server.baseUrl('openai'),
        '--out',
        out,
        '--repeats',
        '2',
        '--max-cost',
        '0.5',
      ],
      { APB_CACHE_DIR: cacheDir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(fake.server.count()).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(cacheDir)).toBe(false);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^split\s+cases\s+planner calls\s+judge calls\s+input tokens\s+output tokens\s+cost \(USD\)$/,
    );
    for (const split of new Set(fake.script.cases.map((item) => item.split)))
      expect(result.stdout).toMatch(new RegExp(`^${split}\\s+\\d+`, 'm'));
    const total = lines.find((line) => line.startsWith('total'))!.split(/\s{2,}/);
    expect(total.slice(1, 4)).toEqual([
      String(fake.script.cases.length),
      String(2 * fake.script.cases.length),
      String(2 * fake.script.cases.length),
    ]);
    // The judge has no price, so the total cost is unknown; the planner's price is listed.
    expect(total.at(-1)).toBe('unknown');
    expect(result.stdout).toContain('planner openai:gpt-4o: 2.5 / 10 USD per million');
    expect(result.stdout).toContain(`judge openai-compatible:${JUDGE_MODEL}: no price`);
    expect(result.stdout).toContain('--max-cost 0.5: the run would be refused');
  });

  it('costs a priced planner and judge', async () => {
    const result = await cli([
      'run',
      '--dry-run',
      '--model',
      'openai:gpt-4o',
      '--judge',
      'google:gemini-2.5-flash',
      '--max-tokens',
      '2048',
      '--splits',
      'holistic_planning',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const total = result.stdout
      .split('\n')
      .find((line) => line.startsWith('total'))!
      .split(/\s{2,}/);
    expect(Number(total.at(-1))).toBeGreaterThan(0);
    expect(result.stdout).toContain('output assumed 2,048 tokens per call');
    expect(fake.server.count()).toBe(0);
  });
});
