/**
 * `apb exec --env tau2:telecom` through the real CLI: the gold replay of the small split (20 tasks)
 * at reward 1.0 with `--dump-db` writing both databases, a replay file whose user actions carry
 * `"requestor": "user"` (one task with its user actions left out scores 0, as its env assertions
 * fail), and a user action refused where the user has no tools.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { runCli } from '../helpers/cli.js';

const temp = () => mkdtempSync(path.join(tmpdir(), 'apb-telecom-'));
const readJsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);

describe('apb exec --env tau2:telecom', () => {
  it('replays the 20 small tasks at reward 1.0 and dumps {agent, user} per task', async () => {
    const dir = temp();
    const run = await runCli(
      ['exec', '--env', 'tau2:telecom', '--agent', 'replay:gold', '--task-split', 'small'].concat([
        '--dump-db',
        path.join(dir, 'db'),
        '--out',
        path.join(dir, 'run'),
      ]),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('20 task(s): 20 reward 1.0, 0 reward 0');
    const lines = readJsonl(path.join(dir, 'run', 'executions.jsonl'));
    expect(lines.filter((line) => line.reward_info.env_assertion === 1)).toHaveLength(20);
    const dumps = readdirSync(path.join(dir, 'db'));
    expect(dumps).toHaveLength(20);
    // Task ids such as `[mms_issue]…|…[PERSONA:None]` are percent-encoded into file names.
    expect(dumps).toContain(`${encodeURIComponent(lines[0]!.task_id)}.json`);
    const dump = JSON.parse(readFileSync(path.join(dir, 'db', dumps[0]!), 'utf8'));
    expect(Object.keys(dump)).toEqual(['agent', 'user']);
    expect(Object.keys(dump.user)).toEqual(['device', 'surroundings']);
    expect(Object.keys(dump.agent)).toEqual(['plans', 'customers', 'lines', 'bills', 'devices']);
  });

  it('reads "requestor": "user" actions from a replay file, and scores a task without them as 0', async () => {
    const environment = loadEnvironment('tau2:telecom');
    const withUserActions = environment.splits
      .small!.map((id) => environment.tasks.find((task) => task.id === id)!)
      .filter(
        (task) =>
          task.criteria.rewardBasis.join() === 'ENV_ASSERTION' &&
          task.criteria.actions?.some((action) => action.requestor === 'user'),
      );
    const [first, second] = withUserActions;
    const script = (task: typeof first, withUser: boolean) => ({
      task_id: task!.id,
      actions: (task!.criteria.actions ?? [])
        .filter((action) => withUser || action.requestor === 'assistant')
        .map(({ name, arguments: args, requestor }) => ({ name, arguments: args, requestor })),
    });
    const dir = temp();
    const file = path.join(dir, 'replay.jsonl');
    writeFileSync(
      file,
      [script(first, true), script(second, false)].map((line) => JSON.stringify(line)).join('\n'),
    );
    const run = await runCli([
      'exec',
      '--env',
      'tau2:telecom',
      '--agent',
      `replay:${file}`,
      '--task-split',
      'small',
      '--out',
      path.join(dir, 'run'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = readJsonl(path.join(dir, 'run', 'executions.jsonl'));
    const reward = Object.fromEntries(lines.map((line) => [line.task_id, line.reward]));
    expect(reward).toEqual({ [first!.id]: 1, [second!.id]: 0 });
    const userCalls = lines
      .find((line) => line.task_id === first!.id)!
      .messages.filter((message: any) => message.role === 'user' && message.tool_calls);
    expect(userCalls.length).toBe(
      first!.criteria.actions!.filter((action) => action.requestor === 'user').length,
    );
  });

  it('refuses a user action where the user has no tools, naming file, line and field', async () => {
    const dir = temp();
    const file = path.join(dir, 'replay.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ task_id: '0', actions: [{ name: 'toggle_data', arguments: {}, requestor: 'user' }] })}\n`,
    );
    const run = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      `replay:${file}`,
      '--out',
      path.join(dir, 'run'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: actions.0.requestor:`);
  });
});
