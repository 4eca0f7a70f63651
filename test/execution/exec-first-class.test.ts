/**
 * Exec runs are runs like any other: a replay writes exec-scores.json and both reports, as a model run does;
 * `apb report` turns one or many exec run directories into a ranked Table 3 leaderboard (and refuses a mix
 * with APB runs); `apb view runs/` lists model runs and replays in its history with their headline reward and
 * serves each one's exec report, case-browser filters included. Real CLI, a scripted model over loopback HTTP.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer } from '../../src/report/viewer/server.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';
import { respondAsExecModels } from './scripted-model.js';

let fake: FakeServer;
let runs: string;
const env = () => ({ APB_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'apb-fc-cache-')) });

beforeAll(async () => {
  fake = await startFakeServer({ respond: respondAsExecModels });
  runs = path.join(mkdtempSync(path.join(tmpdir(), 'apb-fc-')), 'runs');
  const model = await runCli(
    [
      'exec',
      '--env',
      'tau2:retail',
      '--tasks',
      '0,1',
      '--mode',
      'direct,plan-first',
      '--model',
      'openai-compatible:fake-agent',
      '--base-url',
      fake.baseUrl('openai'),
      '--out',
      path.join(runs, 'model'),
      '--max-retries',
      '0',
      '--quiet',
    ],
    { env: env(), timeoutMs: 120_000 },
  );
  expect(model.code, model.stderr).toBe(0);
  const replay = await runCli(
    [
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      'replay:gold',
      '--tasks',
      '0,1',
      '--out',
      path.join(runs, 'replay'),
    ],
    { env: env() },
  );
  expect(replay.code, replay.stderr).toBe(0);
  expect(replay.stderr).toContain(`apb: report: ${path.join(runs, 'replay', 'report.html')}`);
}, 180_000);
afterAll(() => fake.close());

describe('exec runs as first-class runs', () => {
  it('a replay writes its scores and reports, with its reward under Outcomes by mode', () => {
    for (const name of ['exec-scores.json', 'report.md', 'report.html'])
      expect(existsSync(path.join(runs, 'replay', name)), name).toBe(true);
    const markdown = readFileSync(path.join(runs, 'replay', 'report.md'), 'utf8');
    // The gold actions of tasks 0 and 1 reach reward 1.
    expect(markdown).toContain('## Outcomes by mode');
    expect(markdown).toMatch(/\| replay \| 2 \| 1\.00 \| 2 \| 0 \| 0 \| 0 \|/);
    const html = readFileSync(path.join(runs, 'replay', 'report.html'), 'utf8');
    expect(html).toContain('data-filter="outcome"');
    expect(html).toContain('data-outcome="reward 1 (solved)"');
  });

  it('apb report ranks several exec run directories into one Table 3 leaderboard', async () => {
    const board = await runCli(['report', path.join(runs, 'replay'), path.join(runs, 'model')]);
    expect(board.code, board.stderr).toBe(0);
    expect(board.stdout).toContain('# Executable validation leaderboard');
    // The model's row is the only ranked row of its environment (a replay has no Table 3 mode, the
    // floor is not ranked): rank 1, its directory named.
    expect(board.stdout).toMatch(
      /\| 1 \| tau2:retail \| openai-compatible:fake-agent \| reward \| \d\.\d\d \| \d\.\d\d \| – \|.*\| .*model \|/,
    );
    expect(board.stdout).toMatch(/\| floor \| tau2:retail \| do-nothing/);
    expect(board.stdout).toMatch(/\| – \| tau2:retail \| replay:gold \|/);
    expect(board.stdout).toMatch(/\| .*replay \| replay \| 2 \| 1\.00 \|/);
    expect(board.stdout).toMatch(/\| .*model \| plan-first \| 2 \|/);
    const json = await runCli(['report', path.join(runs, 'model'), '--format', 'json']);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.kind).toBe('exec_board');
    expect(parsed.table3[0]).toMatchObject({ rank: null, floor: true, env: 'tau2:retail' });
    expect(parsed.table3[1]).toMatchObject({ rank: 1, model: 'openai-compatible:fake-agent' });
    const mixed = await runCli([
      'report',
      path.join(runs, 'model'),
      'test/fixtures/rundirs/v0/judgements.jsonl',
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('is not an apb exec run directory');
  });

  it('apb view runs/ lists both in its history with a headline and serves their exec reports', async () => {
    const viewer = await startViewer([runs]);
    try {
      const history = (await (await fetch(`${viewer.url}api/history.json`)).json()) as {
        runs: Array<{
          dir: string;
          kind?: string;
          status: string;
          done: number;
          headline: unknown;
        }>;
      };
      const byName = new Map(history.runs.map((entry) => [path.basename(entry.dir), entry]));
      expect(byName.get('replay')).toMatchObject({
        kind: 'exec',
        status: 'complete',
        done: 2,
        headline: { label: 'replay reward', value: 1, unit: 'reward' },
      });
      expect(byName.get('model')).toMatchObject({ kind: 'exec', status: 'complete', done: 4 });
      expect(byName.get('model')!.headline).toMatchObject({ unit: 'reward' });
      const page = await (await fetch(viewer.url)).text();
      expect(page).not.toContain('no manifest');
      expect(page).toMatch(/1\.00 replay reward/);
      expect(page).toContain('2 executions');
      const index = history.runs.findIndex((entry) => path.basename(entry.dir) === 'model');
      const report = await (await fetch(`${viewer.url}runs/${index}/`)).text();
      expect(report).toContain('apb exec — executable validation');
      expect(report).toContain('data-filter="verdict"');
      const scores = await fetch(`${viewer.url}runs/${index}/api/exec-scores.json`);
      expect(scores.status).toBe(200);
    } finally {
      await viewer.close();
    }
  });
});
