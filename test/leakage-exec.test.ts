/**
 * No leaks in executable validation: every evaluator-only field of a task (reference actions' arguments, NL
 * assertions, communicate info, purpose) carries a canary; no request the planner, critic, reviser, agent or user
 * simulator sends — in any mode, and through `apb serve` — may contain one. Checked at the loopback fake server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExec } from '../src/execution/exec-run.js';
import { rulesJudge } from '../src/judge/rules-judge.js';
import { buildProviderStack } from '../src/providers/registry.js';
import { startFakeServer, type FakeServer } from './fake-server/index.js';
import { fakeShop, fakeShopEvaluate, fakeShopTask } from './execution/fake-shop.js';
import { respondAsExecModels, roleOf } from './execution/scripted-model.js';

const CANARY = 'CANARY-exec-reference-9d41';

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond: respondAsExecModels });
});
afterAll(() => fake.close());

describe('exec leakage', () => {
  it('no planner, critic, reviser, agent or user-simulator request holds an evaluator-only field', async () => {
    const tasks = [fakeShopTask('leak-1', '#W1', CANARY), fakeShopTask('leak-2', '#W2', CANARY)];
    // The canary really is in every evaluator-only field.
    expect(JSON.stringify(tasks.map((task) => [task.criteria, task.purpose]))).toContain(CANARY);
    expect(JSON.stringify(tasks.map((task) => task.userScenario))).not.toContain(CANARY);
    const model = buildProviderStack('openai:gpt-4o', {
      baseUrl: fake.baseUrl('openai'),
      env: { OPENAI_API_KEY: 'sk-test' },
      maxRetries: 0,
    });
    const outDir = mkdtempSync(path.join(tmpdir(), 'apb-exec-leak-'));
    await runExec(
      {
        outDir,
        env: fakeShop,
        tasks,
        modes: ['direct', 'plan-first', 'refine'],
        trials: 1,
        concurrency: 1,
        maxSteps: 30,
        maxErrors: 10,
        taxonomy: true,
        sampling: { agent: {}, user: {}, planner: {} },
      },
      {
        agent: model,
        user: model,
        planner: model,
        critic: model,
        judge: rulesJudge,
        evaluate: fakeShopEvaluate,
      },
    );
    const roles = new Set(fake.requests.map(roleOf));
    expect([...roles].sort()).toEqual(['agent', 'critique', 'draft', 'revision', 'user']);
    for (const request of fake.requests) expect(request.rawBody).not.toContain(CANARY);
    // The reference tool names the agent must see anyway are there; the reference's own argument values are not.
    expect(
      fake.requests.some((request) => request.rawBody.includes('no longer needed CANARY')),
    ).toBe(false);
  });
});
