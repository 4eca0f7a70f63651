/**
 * Table 3 run the way the paper ran it (issue 21's acceptance), through the real CLI against a
 * scripted fake over real HTTP: direct, plan-first and refine on retail + airline + telecom in one
 * `apb exec`, with a --judge model that (by default) also plays the user and judges the NL
 * assertions. The pooled reports hold each environment's do-nothing floor first, the pooled tau2
 * row with n per domain, the players named (user simulator, refine critic, plan and NL judges),
 * the planner's context, NL-judged retail rewards, and --compare-paper beside the pooled row only.
 * APB_TABLE3_SUBSET=paper200 runs the same at full size (minutes) and prints Table 3.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { readTaskSubset } from '../../src/execution/tau2-subset.js';
import { runCli } from '../helpers/cli.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { MODELS, TaskIndex, table3Respond } from './table3-script.js';

const BIG = process.env.APB_TABLE3_SUBSET;
const TELECOM = '[mobile_data_issue]user_abroad_roaming_disabled_off[PERSONA:Hard]';
const SMALL = { 'tau2:retail': ['0', '2'], 'tau2:airline': ['19', '4'], 'tau2:telecom': [TELECOM] };
const SUBSET = BIG ? readTaskSubset(BIG) : SMALL;
const environments = Object.entries(SUBSET).map(([id, ids]) => ({
  environment: loadEnvironment(id),
  ids,
}));

type Row = Record<string, any>;
let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond: table3Respond(new TaskIndex(environments)) });
});
afterAll(() => fake.close());

describe('Table 3 over three tau2 domains (issue 21 acceptance)', () => {
  it('writes floors, the pooled row, the players and NL-judged rewards, and compares like with like', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-table3-'));
    const subsetFile = path.join(out, 'subset.json');
    writeFileSync(subsetFile, JSON.stringify({ tasks: SUBSET }));
    const args = ['exec', '--env', Object.keys(SUBSET).join(','), '--subset', subsetFile].concat(
      ['--mode', 'direct,plan-first,refine', '--model', `openai-compatible:${MODELS.agent}`],
      ['--base-url', fake.baseUrl('openai'), '--judge', `openai-compatible:${MODELS.judge}`],
      ['--judge-base-url', fake.baseUrl('openai'), '--out', path.join(out, 'run')],
      ['--compare-paper', '--max-retries', '0', '--concurrency', '2'],
    );
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'apb-table3-cache-'));
    const run = await runCli(args, { env: { APB_CACHE_DIR: cacheDir }, timeoutMs: 1_800_000 });
    expect(run.code, run.stderr).toBe(0);
    const dir = path.join(out, 'run');
    const scores = JSON.parse(readFileSync(path.join(dir, 'exec-scores.json'), 'utf8'));
    const table: Row[] = scores.tables.table3;
    const markdown = readFileSync(path.join(dir, 'report.md'), 'utf8');
    if (BIG) {
      process.stdout.write(`${dir}\n${markdown.slice(0, markdown.indexOf('## Terminations'))}`);
      return;
    }
    const agent = `openai-compatible:${MODELS.agent}`;
    const judge = `openai-compatible:${MODELS.judge}`;
    expect(table.map((row) => `${row.env} ${row.model}`)).toEqual(
      ['tau2:retail', 'tau2:airline', 'tau2:telecom', 'tau2'].flatMap((env) => [
        `${env} do-nothing`,
        `${env} ${agent}`,
      ]),
    );
    const pooled = table.at(-1)!;
    // Without a plan the agent does nothing: direct equals the floor (1 of 5 tasks is free). The
    // draft's one step solves 3 of 5 (both airline tasks, telecom); refine runs the whole chain: 5/5.
    expect(table.at(-2)).toMatchObject({ env: 'tau2', floor: true, direct: 0.2, n: 5 });
    expect(pooled).toMatchObject({
      direct: 0.2,
      plan_first: 0.6,
      refine: 1,
      apb_cr_before: 0,
      apb_cr_after: 100,
      apb_grade_before: 0.4,
      apb_grade_after: 1,
      n: 5,
      domains: { retail: 2, airline: 2, telecom: 1 },
      metric: 'reward',
    });
    expect(pooled.detail.modes.refine).toMatchObject({ runs: 5, unevaluated: 0 });
    // NL assertions judged by the judge model by default: retail task 2's rewards are not null.
    const retail = readFileSync(path.join(dir, 'tau2-retail', 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row)
      .filter((line) => line.task_id === '2');
    expect(retail).toHaveLength(3);
    for (const line of retail) {
      expect(line.reward).not.toBeNull();
      expect(line.reward_details.nl_status).toBe('judged');
    }
    expect(scores.players).toEqual({
      agents: [agent],
      user_models: [judge],
      critics: [agent],
      plan_judges: [judge],
      nl_judges: [judge],
    });
    const players = `Players: tested model (agent, planner, reviser) ${agent}; user simulator ${judge}; refine critic ${agent} (the tested model itself); plan judge (APB CR and grade) ${judge}; NL-assertion judge ${judge}.`;
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    for (const text of [markdown, html, run.stderr]) {
      expect(text).toContain(players);
      expect(text).toContain('Floor: a do-nothing agent (one fixed reply, no tool call');
      expect(text).toContain('Planner context: the plan of plan-first and refine is written from');
    }
    expect(markdown).toMatch(/\| tau2:retail \| do-nothing \(floor: scripted, no model call\) \|/);
    expect(markdown).toContain('| 5 (retail 2, airline 2, telecom 1) |');
    expect(markdown).toContain('The tau2 row pools retail n=2, airline n=2, telecom n=1');
    // --compare-paper: the pooled row is the one compared; a domain's row never is.
    expect(markdown).toContain(
      "- tasks: ours pools 5 (retail 2, airline 2, telecom 1); the paper's row pools 200 τ²-bench tasks",
    );
    expect(markdown).toMatch(/\| openai-compatible:fake-agent \(tau2:retail\) \| not compared: /);
    expect(run.stderr).toMatch(/tau2 · openai-compatible:fake-agent .*1\.00 n=5/);
    const manifest = JSON.parse(
      readFileSync(path.join(dir, 'tau2-telecom', 'exec-manifest.json'), 'utf8'),
    );
    expect(manifest.identity).toMatchObject({ critic: agent, user_model: judge, judge });
  }, 1_900_000);

  it.skipIf(Boolean(BIG))(
    '--no-nl-judge keeps NL assertions unjudged with a judge given, and says so; --dry-run over several environments writes nothing',
    async () => {
      const out = mkdtempSync(path.join(tmpdir(), 'apb-table3-nonl-'));
      const cacheDir = mkdtempSync(path.join(tmpdir(), 'apb-table3-cache-'));
      const base = ['--mode', 'direct', '--model', `openai-compatible:${MODELS.agent}`].concat(
        ['--base-url', fake.baseUrl('openai'), '--judge', `openai-compatible:${MODELS.judge}`],
        ['--judge-base-url', fake.baseUrl('openai'), '--max-retries', '0'],
      );
      const env = { env: { APB_CACHE_DIR: cacheDir }, timeoutMs: 120_000 };
      const args = ['exec', '--env', 'tau2:retail', '--tasks', '2', '--no-nl-judge'];
      const run = await runCli([...args, ...base, '--out', out], env);
      expect(run.code, run.stderr).toBe(0);
      const [line] = readFileSync(path.join(out, 'executions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as Row);
      expect(line).toMatchObject({ reward: null, reward_details: { nl_status: 'not_evaluated' } });
      const markdown = readFileSync(path.join(out, 'report.md'), 'utf8');
      expect(markdown).toContain('NL-assertion judge none (NL assertions left unjudged).');
      const dry = path.join(out, 'dry');
      const envs = [
        'exec',
        '--env',
        'tau2:retail,tau2:airline',
        '--subset',
        'paper200',
        '--dry-run',
      ];
      const plan = await runCli([...envs, ...base, '--out', dry], env);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('tau2:retail');
      expect(plan.stdout).toContain('tau2:airline');
      expect(existsSync(dry)).toBe(false);
    },
    120_000,
  );
});
