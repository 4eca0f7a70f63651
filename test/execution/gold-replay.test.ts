/**
 * The gold replay of every task: each task's reference actions (and its required messages) replayed
 * on a fresh database reach reward 1.0 with the final database equal to the expected one. Tasks
 * whose NL assertions need a judge are shown both ways: without a judge (reward null,
 * `reward_if_nl_met` 1) and through the CLI with a scripted judge on the loopback fake that
 * affirms every assertion it is sent (reward 1.0, one judge call per such task).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { goldReplay, replayTask } from '../../src/execution/replay.js';
import { computeReward, expectedDatabase, type RewardResult } from '../../src/execution/reward.js';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';

/** Tasks per environment, and how many of them have NL assertions in their reward basis. */
const EXPECTED = {
  'tau2:retail': { tasks: 114, needJudge: 40, toolErrors: 18 },
  'tau2:airline': { tasks: 50, needJudge: 0, toolErrors: 0 },
} as const;

async function goldRewards(id: keyof typeof EXPECTED) {
  const environment = loadEnvironment(id);
  const gold = goldReplay(environment);
  const results: { taskId: string; reward: RewardResult; equal: boolean; toolErrors: number }[] =
    [];
  for (const task of environment.tasks) {
    const outcome = await replayTask(environment, task, gold.scripts.get(task.id)!);
    const reward = await computeReward({ environment, task, ...outcome });
    const equal =
      outcome.finalDatabase.equals(expectedDatabase(environment, task)) &&
      outcome.finalDatabase.differences(expectedDatabase(environment, task)).length === 0;
    results.push({
      taskId: task.id,
      reward,
      equal,
      toolErrors: outcome.messages.filter((message) => message.role === 'tool' && message.error)
        .length,
    });
  }
  return results;
}

describe.each(Object.keys(EXPECTED) as (keyof typeof EXPECTED)[])('the gold replay of %s', (id) => {
  it('gives every task reward 1.0 (or 1.0 once its NL assertions hold) and the expected final database', async () => {
    const results = await goldRewards(id);
    const expected = EXPECTED[id];
    expect(results).toHaveLength(expected.tasks);
    expect(results.filter((result) => !result.equal).map((result) => result.taskId)).toEqual([]);
    expect(
      results
        .filter((result) => result.reward.reward !== 1 && result.reward.reward !== null)
        .map((result) => result.taskId),
    ).toEqual([]);
    const unjudged = results.filter((result) => result.reward.reward === null);
    expect(unjudged).toHaveLength(expected.needJudge);
    for (const result of unjudged) {
      expect(result.reward.reward_info).toMatchObject({
        db: 1,
        nl_assertion: null,
        reward_if_nl_met: 1,
      });
      expect(result.reward.details.nl_status).toBe('not_evaluated');
    }
    // The reference actions that fail by design (wrong lookups first) fail here too, with tau2's error text.
    expect(results.reduce((sum, result) => sum + result.toolErrors, 0)).toBe(expected.toolErrors);
  });
});

describe('apb exec --agent replay:gold with a scripted NL judge on the loopback fake', () => {
  let server: FakeServer;
  const assertionsSent: number[] = [];
  beforeAll(async () => {
    server = await startFakeServer({
      respond: (request: RecordedRequest) => {
        const text = request.parsed!.text;
        const outcomes = text
          .slice(text.lastIndexOf('Expected outcomes:'))
          .split('\n')
          .filter((line) => /^\d+\. /.test(line));
        assertionsSent.push(outcomes.length);
        return {
          text: JSON.stringify({
            results: outcomes.map((line) => ({
              expectedOutcome: line.replace(/^\d+\. /, ''),
              reasoning: 'The agent did so.',
              metExpectation: true,
            })),
          }),
        };
      },
    });
  });
  afterAll(() => server.close());

  it('scores all 114 retail tasks 1.0, judging the 40 that have NL assertions, and dumps every final database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-exec-gold-'));
    const args = [
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      'replay:gold',
      '--judge',
      'openai-compatible:nl-judge',
      '--judge-base-url',
      server.baseUrl('openai'),
      '--no-cache',
    ];
    const result = await runCli(
      [...args, '--out', path.join(dir, 'run'), '--dump-db', path.join(dir, 'db')],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '114 task(s): 114 reward 1.0, 0 reward 0; final database as expected in 114',
    );
    expect(server.count()).toBe(40);
    expect(assertionsSent.every((count) => count > 0)).toBe(true);
    const lines = readFileSync(path.join(dir, 'run', 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(114);
    expect(
      lines.every(
        (line) =>
          line.reward === 1 && line.reward_info.db === 1 && line.termination === 'agent_stop',
      ),
    ).toBe(true);
    // Tasks 33 and 34 score on DB alone; the 112 others have NL_ASSERTION in their basis.
    expect(
      lines.filter((line) => line.reward_info.nl_assertion === null).map((line) => line.task_id),
    ).toEqual(['33', '34']);
    expect(lines.filter((line) => line.reward_details.nl_status === 'judged')).toHaveLength(40);
    expect(readdirSync(path.join(dir, 'db'))).toHaveLength(114);
    const dumped = JSON.parse(readFileSync(path.join(dir, 'db', '0.json'), 'utf8'));
    expect(Object.keys(dumped)).toEqual(['products', 'users', 'orders']);
    expect(dumped.orders['#W2378156'].status).toBe('exchange requested');
  }, 180_000);
});
