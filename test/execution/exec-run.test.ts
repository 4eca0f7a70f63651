/**
 * The exec run end to end over real HTTP: direct, plan-first and refine against the scripted fake (agent tool calls,
 * user-simulator turns, planner, critic) on the named FakeShop environment; Table 3 filled from the executions;
 * one draft per (task, trial) shared by plan-first and refine, counted at the fake; resume sends nothing again.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runExec, type ExecRunSpec } from '../../src/execution/exec-run.js';
import { computeExecScores } from '../../src/execution/exec-scores.js';
import type { ExecutionLine, OpeningLine } from '../../src/execution/records.js';
import { rulesJudge } from '../../src/judge/rules-judge.js';
import { costOfCall } from '../../src/pipeline/budget.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { fakeShop, fakeShopEvaluate, fakeShopTask } from './fake-shop.js';
import { respondAsExecModels, roleOf } from './scripted-model.js';

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond: respondAsExecModels });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const stack = () =>
  buildProviderStack('openai:gpt-4o', {
    baseUrl: fake.baseUrl('openai'),
    env: { OPENAI_API_KEY: 'sk-test' },
    maxRetries: 0,
  });
const tasks = [fakeShopTask('t1', '#W1'), fakeShopTask('t2', '#W2')];

function spec(outDir: string, overrides: Partial<ExecRunSpec> = {}): ExecRunSpec {
  return {
    outDir,
    env: fakeShop,
    tasks,
    modes: ['direct', 'plan-first', 'refine'],
    trials: 1,
    concurrency: 2,
    maxSteps: 30,
    maxErrors: 10,
    taxonomy: true,
    sampling: { agent: {}, user: {}, planner: {} },
    ...overrides,
  };
}

function deps() {
  const model = stack();
  return {
    agent: model,
    user: stack(),
    planner: model,
    critic: model,
    judge: rulesJudge,
    evaluate: fakeShopEvaluate,
  };
}

const readLines = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
const counts = () => {
  const byRole: Record<string, number> = {};
  for (const request of fake.requests) byRole[roleOf(request)] = (byRole[roleOf(request)] ?? 0) + 1;
  return byRole;
};

describe('runExec', () => {
  it('runs direct, plan-first and refine end to end, and fills Table 3 from them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-exec-'));
    const summary = await runExec(spec(dir), deps());
    expect(summary).toMatchObject({ total: 6, alreadyDone: 0, finished: 6, interrupted: false });
    // One opening per task: one first user message, one draft, one critique, one revision — shared by both plan modes.
    const perRole = counts();
    expect(perRole).toMatchObject({ draft: 2, critique: 2, revision: 2 });
    const lines = readLines<ExecutionLine>(path.join(dir, 'executions.jsonl'));
    expect(lines.map((line) => `${line.task_id}/${line.mode}`).sort()).toEqual([
      't1/direct',
      't1/plan-first',
      't1/refine',
      't2/direct',
      't2/plan-first',
      't2/refine',
    ]);
    const t1 = (mode: string) => lines.find((line) => line.task_id === 't1' && line.mode === mode)!;
    expect(t1('direct')).toMatchObject({
      reward: 0,
      termination: 'user_stop',
      stop_signal: '###STOP###',
      tool_errors: 1,
    });
    expect(t1('direct').messages[3]).toMatchObject({
      role: 'tool',
      content: 'Error: Order not found',
      error: true,
    });
    expect(t1('plan-first')).toMatchObject({ reward: 1, termination: 'user_stop' });
    expect(
      t1('plan-first')
        .messages.filter((message) => message.role === 'tool')
        .map((message) => message.role === 'tool' && message.name),
    ).toEqual(['get_order_details', 'cancel_pending_order']);
    expect(t1('plan-first').plan?.shown).toContain('DRAFT');
    expect(t1('refine').plan?.shown).toContain('REVISED');
    expect(t1('refine').plan?.before.plan.text).toBe(t1('plan-first').plan?.before.plan.text);
    // Every mode starts from the same first user message.
    for (const line of lines.filter((item) => item.task_id === 't1'))
      expect(line.messages[1]).toEqual({
        role: 'user',
        content: 'Hi, please cancel my order #W1.',
      });
    // User-simulator turns: the first (shared) one per task, then one per later user turn of each conversation.
    expect(perRole.user).toBe(2 + lines.reduce((sum, line) => sum + line.usage.user.calls, 0));
    const openings = readLines<OpeningLine>(path.join(dir, 'plans.jsonl'));
    expect(openings).toHaveLength(2);
    expect(openings[0]!.draft?.judgement.judgement.is_correct).toBe(false);
    expect(openings[0]!.refined?.judgement.judgement.is_correct).toBe(true);

    const scores = await computeExecScores(
      path.join(dir, 'plans.jsonl'),
      path.join(dir, 'executions.jsonl'),
      costOfCall,
    );
    const [row] = scores.tables.table3;
    expect(row).toMatchObject({
      env: 'fake:shop',
      model: 'openai:gpt-4o',
      direct: 0,
      plan_first: 1,
      refine: 1,
      apb_cr_before: 0,
      apb_cr_after: 100,
      n: 2,
      trials: 1,
    });
    expect(row!.apb_grade_after).toBe(1);
    expect(scores.usage.agent!.calls).toBe(perRole.agent);
    expect(scores.usage.planner!.calls).toBe(4);
    expect(scores.usage.critic!.calls).toBe(2);
    expect(scores.usage.user!.calls).toBe(perRole.user);
    expect(scores.usage.agent!.cost_usd).toBeGreaterThan(0);

    // Resume: nothing is sent again.
    const before = fake.count();
    const again = await runExec(spec(dir), deps());
    expect(again).toMatchObject({ total: 6, alreadyDone: 6, finished: 0 });
    expect(fake.count()).toBe(before);
  });

  it('adds trials on resume without remaking the finished ones, and gives pass^k', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-exec-'));
    await runExec(spec(dir, { modes: ['direct'] }), deps());
    expect(counts().draft).toBeUndefined();
    fake.reset();
    // A plan mode added later completes the existing opening (its first user message is reused, not asked again).
    await runExec(spec(dir, { modes: ['direct', 'plan-first'], trials: 2 }), deps());
    const perRole = counts();
    expect(perRole.draft).toBe(4);
    const openings = readLines<OpeningLine>(path.join(dir, 'plans.jsonl'));
    // trial 0 openings were completed (a second line each), trial 1 openings made fresh
    expect(openings).toHaveLength(6);
    const scores = await computeExecScores(
      path.join(dir, 'plans.jsonl'),
      path.join(dir, 'executions.jsonl'),
      costOfCall,
    );
    expect(scores.tables.table3[0]!.pass_hat_k).toEqual({
      direct: { '1': 0, '2': 0 },
      plan_first: { '1': 1, '2': 1 },
    });
  });
});
