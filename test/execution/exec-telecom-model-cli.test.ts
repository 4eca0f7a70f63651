/**
 * `apb exec --env tau2:telecom --mode direct,plan-first` end to end through the real CLI against a
 * scripted fake over real HTTP, with no --judge: the simulated user is offered the phone's tools and
 * carries out the task's user actions with them (the fake sees tool results come back to the user),
 * the agent carries out its own; tau2's env assertions score the phone (reward 1.0); the agent's
 * requests never hold a user tool; and the summary, report.md and report.html all say that APB CR
 * and grade are the structural judge's.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { runCli } from '../helpers/cli.js';
import {
  replies,
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
} from '../fake-server/index.js';
import { PLANNER_MARK, USER_MARK } from './scripted-model.js';

const environment = loadEnvironment('tau2:telecom');
const task = environment.splits
  .small!.map((id) => environment.tasks.find((candidate) => candidate.id === id)!)
  .find(
    (candidate) =>
      candidate.criteria.rewardBasis.join() === 'ENV_ASSERTION' &&
      candidate.criteria.actions!.some((action) => action.requestor === 'user') &&
      candidate.criteria.actions!.some((action) => action.requestor === 'assistant'),
  )!;
const userTools = new Set(environment.userTools!.map((tool) => tool.name));
const of = (who: 'user' | 'assistant') =>
  task.criteria.actions!.filter((action) => action.requestor === who);

function respond(request: RecordedRequest): FakeReply {
  const parsed = request.parsed!;
  const system = parsed.messages[0]?.text ?? '';
  const results = parsed.messages.filter((message) => message.role === 'tool').length;
  if (system.startsWith(USER_MARK)) {
    if (parsed.messages.every((message) => message.role !== 'assistant'))
      return replies.text('Hello, my phone has a problem, can you help?');
    const next = of('user')[results];
    if (next) return replies.toolCalls({ name: next.name, arguments: next.arguments });
    return replies.text('It works now, thank you. ###STOP###');
  }
  if (system.includes(PLANNER_MARK))
    return replies.json({ plan: 'Look the customer up, then fix the line.', tool_chain: [] });
  if (parsed.tools.length === 0) return replies.text('No comment.');
  const next = of('assistant')[results];
  if (next) return replies.toolCalls({ name: next.name, arguments: next.arguments });
  return replies.text('Please do what I ask on your phone, one step at a time.');
}

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond });
});
afterAll(() => fake.close());

describe('apb exec (model agent) on tau2:telecom', () => {
  it('lets the user act on the phone, scores the phone, and says the plans were structurally judged', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'apb-exec-telecom-'));
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'apb-exec-telecom-cache-'));
    const run = await runCli(
      ['exec', '--env', 'tau2:telecom', '--tasks', task.id, '--task-split', 'small'].concat([
        '--mode',
        'direct,plan-first',
        '--model',
        'openai-compatible:fake-agent',
        '--base-url',
        fake.baseUrl('openai'),
        '--out',
        out,
        '--max-retries',
        '0',
      ]),
      { env: { APB_CACHE_DIR: cacheDir }, timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(path.join(out, 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines.map((line) => [line.mode, line.reward, line.termination]).sort()).toEqual([
      ['direct', 1, 'user_stop'],
      ['plan-first', 1, 'user_stop'],
    ]);
    expect(lines[0]!.reward_info.env_assertion).toBe(1);
    const userCalls = lines[0]!.messages.filter((m: any) => m.role === 'user' && m.tool_calls);
    expect(userCalls).toHaveLength(of('user').length);
    const agentRequests = fake.requests.filter(
      (request) =>
        request.parsed!.tools.length > 0 &&
        !request.parsed!.messages[0]!.text.startsWith(USER_MARK),
    );
    expect(agentRequests.length).toBeGreaterThan(0);
    for (const request of agentRequests) {
      expect(request.parsed!.tools.some((tool) => userTools.has(tool.name))).toBe(false);
      // The user's tool results never reach the agent: it sees at most its own calls' results.
      expect(request.parsed!.messages.filter((m) => m.role === 'tool').length).toBeLessThanOrEqual(
        of('assistant').length,
      );
    }
    expect(run.stderr).toContain(
      'apb: user simulator openai-compatible:fake-agent (the tested model: no --judge or --user-model given)',
    );
    const loud = 'not the paper';
    expect(run.stderr).toContain(loud);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(loud);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(loud);
  });
});
