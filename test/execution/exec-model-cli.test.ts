/**
 * `apb exec --env tau2:retail --mode direct,plan-first,refine` end to end through the real CLI, against a scripted
 * fake over real HTTP: the user simulator, the planner, the critic and an agent that carries out a task's
 * reference actions only when its plan is the refined one (the script knows the actions by test construction; no
 * request carries them). tau2's reward scores the real retail database; Table 3 is filled from the executions and
 * the draft is made once per task (counted at the fake); a second run resumes without a call.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { startViewer } from '../../src/report/viewer/server.js';
import { runCli } from '../helpers/cli.js';
import {
  replies,
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { roleOf } from './scripted-model.js';

const TASKS = ['0', '33'];
const environment = loadEnvironment('tau2:retail');
const byId = new Map(environment.tasks.map((task) => [task.id, task]));
const marker = (id: string) => `case-${id}-marker`;
const taskOf = (text: string) =>
  TASKS.find(
    (id) => text.includes(marker(id)) || text.includes(byId.get(id)!.userScenario.instructions),
  ) ?? null;

function respond(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  const role = roleOf(request);
  const id = taskOf(parsed.text);
  if (!id) return replies.text('unknown task');
  const actions = (byId.get(id)!.criteria.actions ?? []).filter(
    (action) => action.requestor === 'assistant',
  );
  const chain = (calls: typeof actions) =>
    calls.map((action) => ({
      name: action.name,
      parameter_description: action.arguments,
      reason: 'needed',
    }));
  if (role === 'user') {
    const own = parsed.messages.filter((message) => message.role === 'assistant').length;
    return replies.text(own === 0 ? `Hello, about ${marker(id)}: please help me.` : '###STOP###');
  }
  if (role === 'draft')
    return replies.json({ plan: 'DRAFT: look things up.', tool_chain: chain(actions.slice(0, 1)) });
  if (role === 'revision')
    return replies.json({ plan: 'REVISED: the whole chain.', tool_chain: chain(actions) });
  if (role === 'critique') return replies.text('The draft stops before the write (E2).');
  const done = parsed.messages.filter((message) => message.role === 'tool').length;
  const revised = parsed.messages[0]!.text.includes('REVISED');
  const next = revised ? actions[done] : done === 0 ? actions[0] : undefined;
  return next
    ? replies.toolCalls({ name: next.name, arguments: next.arguments })
    : replies.text('Is there anything else?');
}

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond });
});
afterAll(() => fake.close());

describe('apb exec (model agent) on tau2:retail', () => {
  it('runs the three modes end to end, fills Table 3, shares one draft per task, and resumes without a call', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-exec-cli-'));
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'apb-exec-cache-'));
    const args = [
      'exec',
      '--env',
      'tau2:retail',
      '--tasks',
      TASKS.join(','),
      '--mode',
      'direct,plan-first,refine',
      '--model',
      'openai-compatible:fake-agent',
      '--base-url',
      fake.baseUrl('openai'),
      '--out',
      out,
      '--max-retries',
      '0',
    ];
    const env = { APB_CACHE_DIR: cacheDir };
    const first = await runCli(args, { env, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    // The shared end-of-run summary: Table 3's row with n, outcomes, terminations, failures, usage by role, where to look.
    expect(first.stderr).toMatch(/apb: exec complete in [\d.]+ s/);
    expect(first.stderr).toMatch(
      /tau2:retail · openai-compatible:fake-agent\s+0\.00 n=2\s+0\.00 n=2\s+1\.00 n=2\s+0\.0 → 100\.0 \(n=2\/2\)/,
    );
    expect(first.stderr).toContain(
      'outcomes: 6 executions of 2 task(s) × 1 trial(s) · 2 reward 1 · 4 below 1 · 0 not evaluated · 0 infrastructure error',
    );
    expect(first.stderr).toContain('terminations: user_stop 6');
    expect(first.stderr).toContain(
      'top failures: 4× db: the final database differs from the expected one',
    );
    expect(first.stderr).toMatch(
      /usage: agent \d+ calls.* · user \d+ calls.* · planner 4 calls.* · critic 2 calls.*retries 0 · 429s 0/,
    );
    expect(first.stderr).toContain(`open it live: npx apb view ${out}`);
    // The progress line: executions done, each mode's mean reward so far with n.
    expect(first.stderr).toMatch(
      /\[#{24}\] 6\/6 {2}direct 0\.00 \(n=2\) {2}plan-first 0\.00 \(n=2\) {2}refine 1\.00 \(n=2\) {2}infra errors 0 {2}retries 0 {2}429s 0/,
    );
    const drafts = fake.requests.filter((request) => roleOf(request) === 'draft').length;
    expect(drafts).toBe(2);
    const scores = JSON.parse(readFileSync(path.join(out, 'exec-scores.json'), 'utf8')) as {
      tables: { table3: Array<Record<string, unknown>> };
      usage: Record<string, { calls: number }>;
    };
    // The do-nothing floor first (both tasks need a write it never makes), then the model, then the pooled rows.
    expect(scores.tables.table3).toHaveLength(4);
    expect(scores.tables.table3[0]).toMatchObject({
      env: 'tau2:retail',
      model: 'do-nothing',
      floor: true,
      direct: 0,
      n: 2,
    });
    expect(scores.tables.table3[1]).toMatchObject({
      env: 'tau2:retail',
      model: 'openai-compatible:fake-agent',
      direct: 0,
      plan_first: 0,
      refine: 1,
      apb_cr_before: 0,
      n: 2,
      trials: 1,
    });
    expect(Object.keys(scores.usage).sort()).toEqual(['agent', 'critic', 'planner', 'user']);
    const lines = readFileSync(path.join(out, 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    const refine0 = lines.find((line) => line.task_id === '0' && line.mode === 'refine')!;
    expect(refine0).toMatchObject({ reward: 1, termination: 'user_stop', reward_info: { db: 1 } });
    const direct0 = lines.find((line) => line.task_id === '0' && line.mode === 'direct')!;
    expect(
      (direct0.reward_details as { db_differences: unknown[] }).db_differences.length,
    ).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('Database difference');
    // The summary's `apb view DIR` serves this exec report live: the same Table 3 as the file, the page from the lines.
    const viewer = await startViewer([out], { port: 0 });
    try {
      const page = await fetch(viewer.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Database difference');
      const live = (await (
        await fetch(new URL('/api/exec-scores.json', viewer.url))
      ).json()) as typeof scores;
      expect(live.tables.table3).toEqual(scores.tables.table3);
    } finally {
      await viewer.close();
    }

    const before = fake.count();
    const again = await runCli([...args, '--json'], { env, timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    expect(fake.count()).toBe(before);
    // --json: the same summary object on stdout, read back from the directory on resume.
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({
      command: 'exec',
      status: 'complete',
      view_command: `npx apb view ${out}`,
    });
    expect(summary.entries[0]).toMatchObject({
      model: 'openai-compatible:fake-agent',
      judge: 'rules',
      outcomes: null,
      exec: {
        env: 'tau2:retail',
        tasks: 2,
        trials: 1,
        outcomes: { executions: 6, success: 2, failed: 4 },
        apb: { cr_before: 0, cr_after: 100, plans_before: 2, plans_after: 2 },
      },
    });
    expect(
      summary.entries[0].exec.modes.map((mode: { mode: string; reward: number; n: number }) => [
        mode.mode,
        mode.reward,
        mode.n,
      ]),
    ).toEqual([
      ['direct', 0, 2],
      ['plan_first', 0, 2],
      ['refine', 1, 2],
    ]);
    expect(summary.entries[0].usage.map((role: { role: string }) => role.role)).toEqual([
      'agent',
      'user',
      'planner',
      'critic',
    ]);
    expect(again.stderr).not.toContain('apb: exec complete');
    // Other settings into the same directory are refused, naming what differs, before any call.
    const other = await runCli(
      [
        ...args,
        '--user-model',
        'openai-compatible:other-user',
        '--user-base-url',
        fake.baseUrl('openai'),
      ],
      { env, timeoutMs: 60_000 },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('user_model');
    expect(fake.count()).toBe(before);
    expect(JSON.parse(readFileSync(path.join(out, 'exec-manifest.json'), 'utf8'))).toMatchObject({
      kind: 'exec',
      status: 'complete',
      modes: ['direct', 'plan-first', 'refine'],
      executions: { total: 6 },
    });
  }, 180_000);

  it('--dry-run counts the conversations and planning calls and the tokens each call carries, calls nothing, writes nothing', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-exec-dry-')), 'run');
    const before = fake.count();
    const result = await runCli(
      [
        'exec',
        '--env',
        'tau2:airline',
        '--mode',
        'plan-first,refine',
        '--model',
        'openai:gpt-4o',
        '--trials',
        '2',
        '--out',
        out,
        '--dry-run',
      ],
      { env: { OPENAI_API_KEY: 'sk-test' } },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('50 task(s) × 2 trial(s) × 2 mode(s) = 200 conversation(s)');
    expect(result.stdout).toContain('100 draft plan(s), 100 critique(s) and 100 revision(s)');
    expect(result.stdout).toMatch(/Every agent call carries at least \d+ input tokens/);
    expect(existsSync(out)).toBe(false);
    expect(fake.count()).toBe(before);
  });

  it('refuses bad arguments with exit 2 and one line', async () => {
    for (const args of [
      ['--mode', 'sideways', '--model', 'openai:gpt-4o'],
      ['--mode', 'direct'],
      ['--mode', 'direct', '--model', 'baseline:heuristic'],
      ['--mode', 'direct', '--model', 'openai:gpt-4o', '--agent', 'replay:gold'],
    ]) {
      const result = await runCli(['exec', '--env', 'tau2:retail', '--out', tmpdir(), ...args], {
        env: { OPENAI_API_KEY: 'sk-test' },
      });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
