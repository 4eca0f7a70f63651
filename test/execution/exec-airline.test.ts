/**
 * `apb exec --env tau2:airline` end to end through the real CLI against the scripted loopback fake (airline-script.ts):
 * the agent's tool calls run on the real airline database, the user simulator's turns end the conversations, and
 * tau2's reward (DB × COMMUNICATE) is checked against what its rules give for the scripted actions, in all three
 * modes; Table 3 is filled and one draft per task is counted at the fake. Then `--retry-errors` after injected
 * infrastructure failures, and `--max-cost` holding with usage counted by role.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { replies, startFakeServer, type FakeServer } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';
import {
  AIRLINE_TASKS,
  describeCall,
  EXPECTED_REWARDS,
  respondAsAirlineModels,
  type ScriptedCall,
} from './airline-script.js';

const environment = loadEnvironment('tau2:airline');
const instructionsOf = (id: string) =>
  environment.tasks.find((task) => task.id === id)!.userScenario.instructions;
/** Requests the test makes fail (HTTP 500, no retry): an infrastructure error where the run records one. */
let failing: (call: ScriptedCall) => boolean = () => false;

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({
    respond: (request) =>
      failing(describeCall(request, instructionsOf))
        ? replies.status(500, 'injected failure')
        : respondAsAirlineModels(request, instructionsOf),
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  failing = () => false;
});

const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const readJsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
const args = (out: string, model = 'openai-compatible:fake-agent') => [
  'exec',
  '--env',
  'tau2:airline',
  '--tasks',
  AIRLINE_TASKS.join(','),
  '--mode',
  'direct,plan-first,refine',
  '--model',
  model,
  '--base-url',
  fake.baseUrl('openai'),
  '--out',
  out,
  '--max-retries',
  '0',
  '--no-cache',
];
const calls = () => fake.requests.map((request) => describeCall(request, instructionsOf));
const rewardsOf = (out: string) =>
  Object.fromEntries(
    readJsonl(path.join(out, 'executions.jsonl')).map((line) => [
      `${line.task_id}/${line.mode}`,
      line.reward,
    ]),
  );
const expectedRewards = Object.fromEntries(
  AIRLINE_TASKS.flatMap((id) =>
    Object.entries(EXPECTED_REWARDS[id]).map(([mode, reward]) => [`${id}/${mode}`, reward]),
  ),
);

describe('apb exec (model agent) on tau2:airline', () => {
  it("runs direct, plan-first and refine end to end with tau2's reward for the scripted actions, and fills Table 3", async () => {
    const out = temp('apb-exec-airline-');
    const result = await runCli(args(out), { timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(rewardsOf(out)).toEqual(expectedRewards);
    const lines = readJsonl(path.join(out, 'executions.jsonl'));
    const line = (id: string, mode: string) =>
      lines.find((entry) => entry.task_id === id && entry.mode === mode)!;
    // Task 3: the database is untouched (DB 1); only plan-first and refine said "4".
    expect(line('3', 'direct').reward_info).toMatchObject({ db: 1, communicate: 0 });
    expect(line('3', 'direct').reward_details.communicate_checks).toEqual([
      { info: '4', met: false },
    ]);
    expect(line('3', 'refine').reward_info).toMatchObject({ db: 1, communicate: 1 });
    // Task 19: plan-first cancelled the wrong reservation — both reservations differ from the expected database.
    expect(
      line('19', 'plan-first')
        .reward_details.db_differences.map(
          (entry: { collection: string; key: string }) => `${entry.collection}/${entry.key}`,
        )
        .sort(),
    ).toEqual(['reservations/THY2DG', 'reservations/Z7GOZK']);
    expect(line('19', 'refine')).toMatchObject({
      reward: 1,
      termination: 'user_stop',
      reward_info: { db: 1, communicate: 1 },
      tool_errors: 0,
    });
    expect(
      line('19', 'refine')
        .messages.filter((message: { role: string }) => message.role === 'tool')
        .map((message: { name: string; content: string }) => message.name),
    ).toEqual(['get_user_details', 'cancel_reservation']);
    expect(
      JSON.parse(
        line('19', 'refine').messages.find(
          (message: { name?: string }) => message.name === 'cancel_reservation',
        ).content,
      ),
    ).toMatchObject({ reservation_id: 'Z7GOZK', status: 'cancelled' });
    // Every user-simulator turn is recorded: its opening message, then ###STOP###.
    expect(
      line('19', 'direct')
        .messages.filter((message: { role: string }) => message.role === 'user')
        .map((message: { content: string }) => message.content),
    ).toEqual(['Hello, about case-19-marker: I need help with my trip.', '###STOP###']);

    const scores = JSON.parse(readFileSync(path.join(out, 'exec-scores.json'), 'utf8'));
    // The floor first, the model's row, then the pooled tau2 rows (floor and model; one domain here).
    expect(
      scores.tables.table3.map((row: { env: string; model: string }) => `${row.env} ${row.model}`),
    ).toEqual([
      'tau2:airline do-nothing',
      'tau2:airline openai-compatible:fake-agent',
      'tau2 do-nothing',
      'tau2 openai-compatible:fake-agent',
    ]);
    // Table 3 by hand: direct (0 + 0) / 2, plan-first (1 + 0) / 2, refine (1 + 1) / 2; the drafts are not the reference chains, the revisions are.
    expect(scores.tables.table3[1]).toMatchObject({
      env: 'tau2:airline',
      direct: 0,
      plan_first: 0.5,
      refine: 1,
      apb_cr_before: 0,
      apb_cr_after: 100,
      n: 2,
      trials: 1,
    });
    // One opening per task: one first user message, one draft, one critique and one revision each, shared by both plan modes.
    const count = (role: string, detail?: string) =>
      calls().filter(
        (call) => call.role === role && (detail === undefined || call.detail === detail),
      ).length;
    expect([count('user', 'first'), count('draft'), count('critique'), count('revision')]).toEqual([
      2, 2, 2, 2,
    ]);
    expect(result.stderr).toMatch(
      /tau2:airline · openai-compatible:fake-agent\s+0\.00 n=2\s+0\.50 n=2\s+1\.00 n=2\s+0\.0 → 100\.0 \(n=2\/2\)/,
    );
  }, 120_000);

  it('--retry-errors runs again only what infrastructure errors left, keeping every finished execution and opening', async () => {
    const out = temp('apb-exec-retry-');
    // Task 19's draft call and task 3's refine agent fail once (no retry): a plan-less plan-first and refine, and an infrastructure error.
    failing = (call) =>
      (call.role === 'draft' && call.task === '19') ||
      (call.role === 'agent' && call.task === '3' && call.detail === 'refine');
    const first = await runCli(args(out), { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const broken = readJsonl(path.join(out, 'executions.jsonl'));
    expect(broken.find((line) => line.task_id === '3' && line.mode === 'refine')).toMatchObject({
      reward: null,
      termination: 'infrastructure_error',
      error: { role: 'agent', kind: 'server' },
    });
    expect(
      broken.find((line) => line.task_id === '19' && line.mode === 'plan-first')!.plan.before.plan
        .status,
    ).toBe('error');
    expect(first.stderr).toContain('1 execution(s) ended on an infrastructure error');
    expect(first.stderr).toContain('rerun with --retry-errors');

    failing = () => false;
    // A plain resume treats the recorded outcomes as finished: nothing is sent.
    fake.reset();
    expect((await runCli(args(out), { timeoutMs: 60_000 })).code).toBe(0);
    expect(fake.count()).toBe(0);
    const retried = await runCli([...args(out), '--retry-errors'], { timeoutMs: 120_000 });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain(
      '--retry-errors: 3 execution(s) and 1 opening(s) left by infrastructure errors are made again',
    );
    // Only task 19's plans and plan-mode conversations and task 3's refine conversation: no opening message, no direct conversation again.
    const sent = calls();
    expect(sent.filter((call) => call.role === 'user' && call.detail === 'first')).toEqual([]);
    expect(sent.filter((call) => call.role === 'agent' && call.detail === 'direct')).toEqual([]);
    expect(sent.filter((call) => call.role === 'draft').map((call) => call.task)).toEqual(['19']);
    expect(
      new Set(
        sent.filter((call) => call.role === 'agent').map((call) => `${call.task}/${call.detail}`),
      ),
    ).toEqual(new Set(['19/plan-first', '19/refine', '3/refine']));
    expect(rewardsOf(out)).toEqual(expectedRewards);
    const kept = readJsonl(path.join(out, 'executions.jsonl'));
    for (const line of broken.filter(
      (entry) => entry.mode === 'direct' || (entry.task_id === '3' && entry.mode === 'plan-first'),
    )) {
      expect(
        kept.find((entry) => entry.task_id === line.task_id && entry.mode === line.mode),
      ).toEqual(line);
    }
    // plans.jsonl is append-only: the completed opening follows the one cut back, and the latest line of a (task, trial) counts.
    const openings = new Map(
      readJsonl(path.join(out, 'plans.jsonl')).map((line) => [line.task_id, line]),
    );
    expect(
      [...openings.values()]
        .map((line) => [line.task_id, line.draft?.plan.status, line.refined?.plan.refine_status])
        .sort(),
    ).toEqual([
      ['19', 'ok', 'ok'],
      ['3', 'ok', 'ok'],
    ]);
    expect(openings.get('19')!.first_user_message).toBe(
      broken.find((line) => line.task_id === '19')!.messages[1].content,
    );
  }, 180_000);

  it('--max-cost holds: the run stops within the budget (usage counted by role), and a resume with more budget finishes', async () => {
    const out = temp('apb-exec-budget-');
    const env = { OPENAI_API_KEY: 'sk-test-budget' };
    const budgeted = [
      'exec',
      '--env',
      'tau2:airline',
      '--tasks',
      AIRLINE_TASKS.join(','),
      '--mode',
      'direct,plan-first,refine',
      '--model',
      'openai:gpt-4o',
      '--base-url',
      fake.baseUrl('openai'),
      '--out',
      out,
      '--no-cache',
      '--concurrency',
      '1',
    ];
    const stopped = await runCli([...budgeted, '--max-cost', '0.12'], { env, timeoutMs: 120_000 });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toMatch(
      /stopped by --max-cost 0\.12 USD after spending about 0\.\d{4} USD; \d+ execution\(s\) not run/,
    );
    const manifest = JSON.parse(readFileSync(path.join(out, 'exec-manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      status: 'stopped-budget',
      budget: { max_cost_usd: 0.12, stopped: true },
    });
    expect(manifest.budget.spent_usd).toBeGreaterThan(0);
    expect(manifest.budget.spent_usd).toBeLessThanOrEqual(0.12);
    const scores = JSON.parse(readFileSync(path.join(out, 'exec-scores.json'), 'utf8'));
    const roles = Object.entries(
      scores.usage as Record<string, { cost_usd: number; calls: number }>,
    );
    expect(roles.map(([role]) => role)).toEqual(expect.arrayContaining(['agent', 'user']));
    for (const [, usage] of roles) expect(usage.cost_usd).toBeGreaterThan(0);
    // What the finished executions and openings recorded never exceeds what the budget let through.
    expect(roles.reduce((sum, [, usage]) => sum + usage.cost_usd, 0)).toBeLessThanOrEqual(
      manifest.budget.spent_usd + 1e-9,
    );
    const finished = readJsonl(path.join(out, 'executions.jsonl'));
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(6);

    const resumed = await runCli([...budgeted, '--max-cost', '100'], { env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, 'exec-manifest.json'), 'utf8'))).toMatchObject({
      status: 'complete',
      executions: { total: 6, already_done: finished.length },
    });
    const all = readJsonl(path.join(out, 'executions.jsonl'));
    expect(all).toHaveLength(6);
    for (const line of finished)
      expect(
        all.find((entry) => entry.task_id === line.task_id && entry.mode === line.mode),
      ).toEqual(line);
    expect(rewardsOf(out)).toEqual(expectedRewards);
  }, 180_000);

  it('--max-cost holds at any budget with four tasks in flight: what is spent, and what the lines record by role, stays within it', async () => {
    const env = { OPENAI_API_KEY: 'sk-test-budget' };
    for (const budget of [0.02, 0.07, 0.13]) {
      const out = temp('apb-exec-budget-');
      const result = await runCli(
        [
          'exec',
          '--env',
          'tau2:airline',
          '--tasks',
          AIRLINE_TASKS.join(','),
          '--mode',
          'direct,plan-first,refine',
          '--model',
          'openai:gpt-4o',
          '--base-url',
          fake.baseUrl('openai'),
          '--out',
          out,
          '--no-cache',
          '--concurrency',
          '4',
          '--trials',
          '2',
          '--max-cost',
          String(budget),
          '--json',
        ],
        { env, timeoutMs: 120_000 },
      );
      expect(result.code, result.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(path.join(out, 'exec-manifest.json'), 'utf8'));
      expect(manifest.status).toBe('stopped-budget');
      expect(manifest.budget.spent_usd).toBeLessThanOrEqual(budget);
      const summary = JSON.parse(result.stdout);
      expect(summary.status).toBe('stopped-budget');
      const recorded = summary.entries[0].usage.reduce(
        (sum: number, role: { cost_usd: number }) => sum + role.cost_usd,
        0,
      );
      expect(recorded).toBeLessThanOrEqual(manifest.budget.spent_usd + 1e-9);
      expect(summary.entries[0].cost_usd).toBeCloseTo(recorded, 12);
    }
  }, 180_000);
});
