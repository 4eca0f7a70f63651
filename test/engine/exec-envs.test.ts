/**
 * `runModelExecutions` (engine/exec-envs.ts) as a library call, the way `apb exec --env a,b`
 * runs: one run directory per environment under OUT, each reported through the hook as it ends,
 * then the pooled scores and reports in OUT; a stopped run pools nothing and starts no further
 * environment. Against the scripted Table 3 fake over real HTTP (test/execution/table3-script.ts).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment, runModelExecutions, type ModelExecutionsSpec } from '../../src/index.js';
import { selectTasks } from '../../src/engine/exec-tasks.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';
import { MODELS, TaskIndex, table3Respond } from '../execution/table3-script.js';

const SUBSET = { 'tau2:retail': ['0'], 'tau2:airline': ['19', '4'] };
const environments = Object.entries(SUBSET).map(([id, ids]) => ({
  environment: loadEnvironment(id),
  ids,
}));

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond: table3Respond(new TaskIndex(environments)) });
});
afterAll(() => fake.close());

function specOf(outDir: string): ModelExecutionsSpec {
  return {
    selections: environments.map(({ environment, ids }) => ({
      environment,
      tasks: selectTasks(environment, { taskIds: ids, split: 'all', limit: null }, null),
    })),
    outDir,
    modes: ['direct', 'plan-first'],
    model: `openai-compatible:${MODELS.agent}`,
    baseUrl: fake.baseUrl('openai'),
    judge: `openai-compatible:${MODELS.judge}`,
    judgeBaseUrl: fake.baseUrl('openai'),
    nlJudge: true,
    taxonomy: true,
    trials: 1,
    maxSteps: 30,
    concurrency: 2,
    timeoutMs: 30_000,
    maxRetries: 0,
    cache: false,
    cacheDir: mkdtempSync(path.join(tmpdir(), 'apb-envs-cache-')),
    comparePaper: false,
    retryErrors: false,
  };
}

describe('runModelExecutions', () => {
  it('runs each environment into OUT/<env>/, tells each as it ends, then pools them in OUT', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-envs-'));
    const told: string[] = [];
    const summary = await runModelExecutions(specOf(out), {
      onEnvironment: (done) => {
        // Told before the pooled reports are written.
        told.push(`${done.env} ${path.relative(out, done.dir)} ${done.summary.status}`);
        expect(existsSync(path.join(out, 'exec-scores.json'))).toBe(false);
      },
    });
    expect(told).toEqual([
      'tau2:retail tau2-retail complete',
      'tau2:airline tau2-airline complete',
    ]);
    expect(summary).toMatchObject({
      status: 'complete',
      interrupted: false,
      agent: `openai-compatible:${MODELS.agent}`,
      judge: `openai-compatible:${MODELS.judge}`,
    });
    expect(summary.environments.map((done) => done.summary.run.finished)).toEqual([2, 4]);
    const pooled = summary.scores!.tables.table3.filter((row) => row.env === 'tau2' && !row.floor);
    expect(pooled).toMatchObject([{ n: 3, domains: { retail: 1, airline: 2 } }]);
    const written = JSON.parse(readFileSync(path.join(out, 'exec-scores.json'), 'utf8'));
    expect(written.tables.table3).toEqual(summary.scores!.tables.table3);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
  }, 120_000);

  it('stopped: the first environment ends interrupted, no other starts, nothing is pooled', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-envs-stop-'));
    const stop = new AbortController();
    stop.abort();
    const summary = await runModelExecutions(specOf(out), { stop: stop.signal });
    expect(summary).toMatchObject({ status: 'interrupted', interrupted: true, scores: null });
    expect(summary.environments.map((done) => done.env)).toEqual(['tau2:retail']);
    expect(existsSync(path.join(out, 'tau2-airline'))).toBe(false);
    expect(existsSync(path.join(out, 'exec-scores.json'))).toBe(false);
  }, 60_000);

  it('--max-cost is one budget for the command: once it stops a run, no further environment starts', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-envs-budget-'));
    const key = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-envs-budget';
    try {
      // gpt-4o is priced, so its first call's estimate is over this cap: the first run stops there.
      const summary = await runModelExecutions({
        ...specOf(out),
        model: 'openai:gpt-4o',
        judge: 'rules',
        nlJudge: false,
        maxCost: 0.0001,
      });
      expect(summary).toMatchObject({ status: 'stopped-budget', interrupted: false, scores: null });
      expect(summary.environments.map((done) => done.env)).toEqual(['tau2:retail']);
      expect(summary.environments[0]!.summary.budget).toMatchObject({ exhausted: true });
      expect(existsSync(path.join(out, 'tau2-airline'))).toBe(false);
      expect(existsSync(path.join(out, 'exec-scores.json'))).toBe(false);
    } finally {
      if (key === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = key;
    }
  }, 60_000);

  it('apb exec --env a,b --json prints one object on stdout: the pooled summary', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-envs-json-'));
    const subset = path.join(out, 'subset.json');
    writeFileSync(subset, JSON.stringify({ tasks: SUBSET }));
    const args = ['exec', '--env', Object.keys(SUBSET).join(','), '--subset', subset].concat(
      ['--mode', 'direct', '--model', `openai-compatible:${MODELS.agent}`, '--json'],
      ['--base-url', fake.baseUrl('openai'), '--judge', `openai-compatible:${MODELS.judge}`],
      ['--judge-base-url', fake.baseUrl('openai'), '--out', path.join(out, 'run')],
    );
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'apb-envs-json-cache-'));
    const run = await runCli(args, { env: { APB_CACHE_DIR: cacheDir }, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.entries.map((entry: { exec: { env: string } }) => entry.exec.env)).toEqual([
      'tau2',
    ]);
    expect(summary.report_md).toBe(path.join(out, 'run', 'report.md'));
  }, 120_000);
});
