/**
 * Agents as code in `apb exec`: a scripted agent that replays each task's reference actions turn by
 * turn reaches reward 1.0 on tau2 retail tasks as a module, a line process and an HTTP server, its
 * own loop executed by apb's conversation loop against the real environment, with a user simulator
 * as code. The agent is told the task and turn, the conversation and the tool schemas, never the
 * reference (the scripts reach it from its own file, as a real agent's knowledge would).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecTask } from '../../src/execution/environment.js';
import { runExec } from '../../src/execution/exec-run.js';
import type { ExecutionLine } from '../../src/execution/records.js';
import { loadEnvironment } from '../../src/execution/registry.js';
import { goldReplay } from '../../src/execution/replay.js';
import { computeReward } from '../../src/execution/reward.js';
import type { EnvironmentSession } from '../../src/execution/environment.js';
import { rulesJudge } from '../../src/judge/rules-judge.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import { REPO_ROOT } from '../helpers/cli.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/code-agents');
const AGENT = path.join(FIXTURES, 'gold-agent.mjs');
const environment = loadEnvironment('tau2:retail');
/** Tasks whose reward needs no NL judge and whose reference has actions. */
const tasks = environment.tasks
  .filter(
    (task) => task.criteria.nlAssertions.length === 0 && (task.criteria.actions?.length ?? 0) > 0,
  )
  .slice(0, 3);

let server: Server;
let url = '';
const received: string[] = [];
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-code-agents-'));
  const scripts = Object.fromEntries(goldReplay(environment).scripts);
  process.env.AGENT_SCRIPTS = path.join(dir, 'scripts.json');
  writeFileSync(process.env.AGENT_SCRIPTS, JSON.stringify(scripts));
  const agent = (await import(AGENT)) as { turn(request: unknown): unknown };
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      response.end(JSON.stringify(agent.turn(JSON.parse(body))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/turn`;
});
afterAll(() => server?.close());

async function execWith(agentSpec: string): Promise<ExecutionLine[]> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'apb-code-agent-run-'));
  const options = { concurrency: 2, timeoutMs: 20_000, maxRetries: 0 };
  const agent = buildProviderStack(agentSpec, options);
  await runExec(
    {
      outDir,
      env: environment,
      tasks,
      modes: ['direct'],
      trials: 1,
      concurrency: 2,
      maxSteps: 60,
      maxErrors: 10,
      taxonomy: true,
      sampling: { agent: {}, user: {}, planner: {} },
    },
    {
      agent,
      user: buildProviderStack(`module:${path.join(FIXTURES, 'user.mjs')}`, options),
      planner: agent,
      critic: agent,
      judge: rulesJudge,
      evaluate: async ({ task, messages, termination, session }) => {
        const result = await computeReward({
          environment,
          task: task as ExecTask,
          messages,
          termination,
          finalDatabase: (session as EnvironmentSession).database(),
        });
        return {
          reward: result.reward,
          reward_info: { ...result.reward_info },
          details: { ...result.details },
        };
      },
    },
  );
  return readFileSync(path.join(outDir, 'executions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ExecutionLine);
}

describe('a scripted agent as code in tau2 retail', () => {
  it.each([
    ['module', () => `module:${AGENT}`],
    ['cmd', () => `cmd:${process.execPath} ${AGENT}`],
    ['http', () => `http:${url}`],
  ])(
    'reaches reward 1.0 on every task as %s',
    async (_form, spec) => {
      expect(tasks).toHaveLength(3);
      const lines = await execWith(spec());
      expect(lines.map((line) => [line.task_id, line.reward])).toEqual(
        tasks.map((task) => [task.id, 1]),
      );
      for (const line of lines) {
        expect(line.model).toBe(spec());
        const calls = line.messages.filter((message) => message.role === 'tool').length;
        expect(calls).toBe(
          goldReplay(environment)
            .scripts.get(line.task_id)!
            .actions.filter((action) => action.requestor === 'assistant').length,
        );
      }
    },
    60_000,
  );

  it('sends the task, the turn, the conversation and the tools: never the reference', () => {
    expect(received.length).toBeGreaterThan(3);
    const first = JSON.parse(received[0]!) as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(['messages', 'task_id', 'tools', 'turn']);
    // The turn counts the agent's messages so far (tau2's opening greeting included).
    const own = (first.messages as { role: string }[]).filter((m) => m.role === 'assistant');
    expect(first.turn).toBe(own.length);
    expect((first.tools as { name: string }[]).map((tool) => tool.name)).toContain(
      'get_order_details',
    );
    // Reference fields of the task (its expected actions' arguments) are absent from the first turn.
    const task = tasks.find((each) => each.id === first.task_id)!;
    const reference = JSON.stringify(task.criteria.actions!.at(-1)!.arguments);
    expect(received[0]).not.toContain(reference);
  });
});
