/**
 * The CLI side of planners and agents as code and of the model options: `apb run --model module:…`
 * (alone and in a leaderboard beside a cmd: planner), `apb exec --agent cmd:…`, and the planner and
 * judge options reaching the forwarded HTTP requests (a loopback fake) and the manifest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const out = () => mkdtempSync(path.join(tmpdir(), 'apb-own-cli-'));
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
const EXAMPLE = path.join(REPO_ROOT, 'examples/planner.ts');
const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/code-agents');

describe('apb run with a planner as code', () => {
  it('runs a module planner and names it as code in the summary and the manifest', async () => {
    const dir = out();
    const result = await runCli([
      'run',
      '--model',
      `module:${EXAMPLE}`,
      '--limit',
      '1',
      '--out',
      dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain('(planner as code, module)');
    expect(readJson(path.join(dir, 'manifest.json')).identity.tested_model).toBe(
      `module:${EXAMPLE}`,
    );
  });

  it.skipIf(spawnSync('python3', ['--version']).status !== 0)(
    'ranks a module and a subprocess planner in one leaderboard',
    async () => {
      const dir = out();
      const python = `cmd:python3 ${path.join(REPO_ROOT, 'examples/planner.py')}`;
      const result = await runCli([
        'run',
        '--model',
        `module:${EXAMPLE}`,
        '--model',
        python,
        '--limit',
        '1',
        '--no-cache',
        '--out',
        dir,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const board = readFileSync(path.join(dir, 'leaderboard.md'), 'utf8');
      expect(board).toContain('(planner as code, module)');
      expect(board).toContain('(planner as code, cmd)');
    },
  );

  it('refuses a missing module before any call', async () => {
    const result = await runCli(['run', '--model', 'module:./nowhere.mjs', '--out', out()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/module:\.\/nowhere\.mjs: no such file/);
  });
});

describe('apb exec with an agent as code', () => {
  it('replays the gold actions of two retail tasks through cmd: to reward 1.0', async () => {
    const dir = out();
    const scripts = path.join(dir, 'scripts.json');
    const { writeFileSync } = await import('node:fs');
    const { loadEnvironment } = await import('../../src/execution/registry.js');
    const { goldReplay } = await import('../../src/execution/replay.js');
    const environment = loadEnvironment('tau2:retail');
    writeFileSync(scripts, JSON.stringify(Object.fromEntries(goldReplay(environment).scripts)));
    const ids = environment.tasks
      .filter((task) => task.criteria.nlAssertions.length === 0 && task.criteria.actions?.length)
      .slice(0, 2)
      .map((task) => task.id);
    const args = ['exec', '--env', 'tau2:retail', '--tasks', ids.join(','), '--out', dir];
    const refused = await runCli([...args, '--agent', `cmd:node ${FIXTURES}/gold-agent.mjs`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/needs --user-model/);
    const result = await runCli(
      [
        ...args,
        '--agent',
        `cmd:${process.execPath} ${path.join(FIXTURES, 'gold-agent.mjs')}`,
        '--user-model',
        `module:${path.join(FIXTURES, 'user.mjs')}`,
      ],
      { env: { AGENT_SCRIPTS: scripts } },
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(path.join(dir, 'executions.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).reward)).toEqual([1, 1]);
  }, 60_000);
});

describe('model options on the command line', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeServer();
  });
  afterAll(() => fake?.close());

  it('forwards the planner and judge options and records them in the manifest', async () => {
    const dir = out();
    const result = await runCli(
      [
        'run',
        '--model',
        'openai:o4-mini',
        '--base-url',
        fake.baseUrl('openai'),
        '--seed',
        '7',
        '--reasoning-effort',
        'high',
        '--max-tokens',
        '900',
        '--judge',
        'openai:gpt-4.1',
        '--judge-base-url',
        fake.baseUrl('openai'),
        '--judge-seed',
        '3',
        '--judge-max-tokens',
        '333',
        '--ids',
        'sample-hp-01',
        '--splits',
        'holistic_planning',
        '--no-cache',
        '--out',
        dir,
      ],
      { env: { OPENAI_API_KEY: 'sk-test-options' } },
    );
    expect(result.code, result.stderr).not.toBe(2);
    const planner = fake.requests.find((request) => request.body?.model === 'o4-mini')!.body!;
    expect(planner).toMatchObject({ seed: 7, reasoning_effort: 'high' });
    expect(planner.max_completion_tokens ?? planner.max_tokens).toBe(900);
    const judge = fake.requests.find((request) => request.body?.model === 'gpt-4.1')!.body!;
    expect(judge).toMatchObject({ seed: 3, temperature: 0 });
    expect(judge.max_completion_tokens ?? judge.max_tokens).toBe(333);
    const identity = readJson(path.join(dir, 'manifest.json')).identity;
    expect(identity.sampling).toMatchObject({ seed: 7, reasoningEffort: 'high' });
    expect(identity.judge_version).toContain('"seed":3');
  }, 60_000);

  it('forwards the agent and user options of apb exec and records them', async () => {
    fake.reset();
    const dir = out();
    const result = await runCli(
      [
        'exec',
        '--env',
        'tau2:retail',
        '--tasks',
        '0',
        '--mode',
        'direct',
        '--model',
        'openai:gpt-4o',
        '--base-url',
        fake.baseUrl('openai'),
        '--user-model',
        'openai:gpt-4o-mini',
        '--user-base-url',
        fake.baseUrl('openai'),
        '--seed',
        '5',
        '--max-tokens',
        '400',
        '--user-seed',
        '6',
        '--user-max-tokens',
        '77',
        '--max-steps',
        '4',
        '--no-cache',
        '--out',
        dir,
      ],
      { env: { OPENAI_API_KEY: 'sk-test-options' } },
    );
    expect(result.code, result.stderr).toBe(0);
    const bodies = (model: string) =>
      fake.requests.filter((request) => request.body?.model === model).map((r) => r.body!);
    expect(bodies('gpt-4o').length).toBeGreaterThan(0);
    for (const body of bodies('gpt-4o')) expect(body).toMatchObject({ seed: 5, max_tokens: 400 });
    expect(bodies('gpt-4o-mini').length).toBeGreaterThan(0);
    for (const body of bodies('gpt-4o-mini'))
      expect(body).toMatchObject({ seed: 6, max_tokens: 77 });
    const identity = readJson(path.join(dir, 'exec-manifest.json')).identity;
    expect(identity.sampling).toMatchObject({
      agent: { seed: 5, maxOutputTokens: 400 },
      user: { seed: 6, maxOutputTokens: 77 },
    });
  }, 60_000);

  it("forwards the refine critic's and the plan judge's options of apb exec", async () => {
    fake.reset();
    const dir = out();
    const result = await runCli(
      [
        'exec',
        '--env',
        'tau2:retail',
        '--tasks',
        '2',
        '--mode',
        'refine',
        '--model',
        'openai:gpt-4o',
        '--base-url',
        fake.baseUrl('openai'),
        '--critic',
        'openai:o3',
        '--critic-base-url',
        fake.baseUrl('openai'),
        '--critic-seed',
        '11',
        '--critic-max-tokens',
        '222',
        '--judge',
        'openai:gpt-4.1',
        '--judge-base-url',
        fake.baseUrl('openai'),
        '--judge-seed',
        '13',
        '--max-steps',
        '4',
        '--no-cache',
        '--out',
        dir,
      ],
      { env: { OPENAI_API_KEY: 'sk-test-options' } },
    );
    expect(result.code, result.stderr).toBe(0);
    const bodies = (model: string) =>
      fake.requests.filter((request) => request.body?.model === model).map((r) => r.body!);
    expect(bodies('o3').length).toBeGreaterThan(0);
    for (const body of bodies('o3')) {
      expect(body.seed).toBe(11);
      expect(body.max_completion_tokens ?? body.max_tokens).toBe(222);
    }
    // The judge model judges the plans and plays the user: the user keeps its own options, every
    // judging call carries the judge's seed at temperature 0 (the NL judge: nl-assertions.test.ts).
    const judging = bodies('gpt-4.1').filter((body) => body.seed === 13);
    expect(judging.length).toBeGreaterThanOrEqual(2);
    for (const body of judging) expect(body.temperature).toBe(0);

    const identity = readJson(path.join(dir, 'exec-manifest.json')).identity;
    expect(identity.sampling.critic).toMatchObject({ temperature: 0, seed: 11 });
  }, 60_000);

  it('forwards the judge options of apb judge', async () => {
    fake.reset();
    const dir = out();
    expect((await runCli(['run', '--limit', '1', '--out', dir])).code).toBe(0);
    const result = await runCli(
      [
        'judge',
        dir,
        '--judge',
        'openai:gpt-4.1',
        '--judge-base-url',
        fake.baseUrl('openai'),
        '--judge-seed',
        '9',
        '--judge-reasoning-effort',
        'none',
        '--out',
        out(),
      ],
      { env: { OPENAI_API_KEY: 'sk-test-options' } },
    );
    expect(result.code, result.stderr).not.toBe(2);
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const request of fake.requests) expect(request.body).toMatchObject({ seed: 9 });
  }, 60_000);

  it('refuses a reasoning effort no vendor takes, naming the values', async () => {
    const result = await runCli(['run', '--reasoning-effort', 'extreme', '--out', out()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/none, minimal, low, medium, high, xhigh/);
  });
});
