/**
 * `apb exec` as a user runs it: a replay file (good and bad), task selection, `--dump-db`, the
 * airline gold replay, and the refusals (bad input named by FILE:LINE: field, exit 2).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../src/rundir/lock.js';
import { runCli } from '../helpers/cli.js';

const temp = () => mkdtempSync(path.join(tmpdir(), 'apb-exec-'));
const jsonl = (lines: unknown[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
const readJsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

const CANCEL_81 = [
  {
    name: 'cancel_pending_order',
    arguments: { order_id: '#W3289292', reason: 'no longer needed' },
  },
  {
    name: 'cancel_pending_order',
    arguments: { order_id: '#W9722559', reason: 'no longer needed' },
  },
];

describe('apb exec --agent replay:FILE', () => {
  it('replays each scripted task on a fresh database, scores it and dumps its final database', async () => {
    const dir = temp();
    const file = path.join(dir, 'replay.jsonl');
    writeFileSync(
      file,
      jsonl([
        { task_id: '81', actions: CANCEL_81, messages: ['Both orders are cancelled.'] },
        { task_id: '33', actions: [] },
      ]),
    );
    const result = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      `replay:${file}`,
      '--out',
      path.join(dir, 'run'),
      '--dump-db',
      path.join(dir, 'db'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = readJsonl(path.join(dir, 'run', 'executions.jsonl'));
    // Environment order: task 33 comes before task 81.
    expect(
      lines.map((line) => [line.task_id, line.mode, line.model, line.trial, line.reward]),
    ).toEqual([
      ['33', 'replay', `replay:${file}`, 0, 0],
      ['81', 'replay', `replay:${file}`, 0, 1],
    ]);
    expect(
      lines[0].reward_details.db_differences.map(
        (difference: { collection: string; key: string }) =>
          `${difference.collection}/${difference.key}`,
      ),
    ).toEqual(['users/noah_patel_6952']);
    expect(lines[1].messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'Both orders are cancelled.',
    });
    expect(lines[1].messages[1]).toMatchObject({
      role: 'tool',
      tool_call_id: '81-call-1',
      name: 'cancel_pending_order',
      error: false,
    });
    expect(readdirSync(path.join(dir, 'db')).sort()).toEqual(['33.json', '81.json']);
    const dumped = JSON.parse(readFileSync(path.join(dir, 'db', '81.json'), 'utf8'));
    expect(dumped.orders['#W3289292']).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'no longer needed',
    });
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run', 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      command: 'exec',
      env: 'tau2:retail',
      agent: `replay:${file}`,
      nl_judge: null,
      counts: { tasks: 2, rewardOne: 1, rewardZero: 1 },
    });

    // Re-running the same agent rewrites the directory; another agent is refused.
    expect(
      (
        await runCli([
          'exec',
          '--env',
          'tau2:retail',
          '--agent',
          `replay:${file}`,
          '--tasks',
          '81',
          '--out',
          path.join(dir, 'run'),
        ])
      ).code,
    ).toBe(0);
    expect(readJsonl(path.join(dir, 'run', 'executions.jsonl'))).toHaveLength(1);
    const other = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      'replay:gold',
      '--out',
      path.join(dir, 'run'),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      `holds executions of replay:${file} on tau2:retail, not replay:gold on tau2:retail`,
    );
  });

  it('refuses a bad replay file before running anything, naming each problem by file, line and field', async () => {
    const dir = temp();
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(
      file,
      jsonl([
        { task_id: '81', actions: CANCEL_81 },
        { task_id: '999', actions: [] },
        { task_id: '3', actions: [{ arguments: {} }] },
        '{"task_id": "4", ',
        { task_id: '81', actions: [] },
      ]),
    );
    const result = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      `replay:${file}`,
      '--out',
      path.join(dir, 'run'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:2: task_id: tau2:retail has no task "999"`);
    expect(result.stderr).toContain(`${file}:3: actions.0.name:`);
    expect(result.stderr).toContain(`${file}:4: (line): invalid JSON`);
    expect(result.stderr).toContain(`${file}:5: task_id: task "81" is scripted twice`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir)).toEqual(['bad.jsonl']);
  });

  it('refuses a run directory another writer holds', async () => {
    const dir = temp();
    const lock = acquireRunLock(dir, 'exec');
    try {
      const result = await runCli([
        'exec',
        '--env',
        'tau2:retail',
        '--agent',
        'replay:gold',
        '--tasks',
        '0',
        '--out',
        dir,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(dir);
    } finally {
      lock.release();
    }
  });

  it('refuses an unknown environment, agent or split with exit 2', async () => {
    const dir = temp();
    const env = await runCli([
      'exec',
      '--env',
      'tau2:banking',
      '--agent',
      'replay:gold',
      '--out',
      dir,
    ]);
    expect([env.code, env.stderr.trim()]).toEqual([
      2,
      'apb: --env must be one of tau2:retail, tau2:airline, tau2:telecom, toolsandbox, got "tau2:banking"',
    ]);
    const agent = await runCli(['exec', '--env', 'tau2:retail', '--agent', 'gold', '--out', dir]);
    expect([agent.code, agent.stderr.trim()]).toEqual([
      2,
      'apb: --agent must be replay:FILE or replay:gold (got "gold")',
    ]);
    const split = await runCli([
      'exec',
      '--env',
      'tau2:retail',
      '--agent',
      'replay:gold',
      '--task-split',
      'dev',
      '--out',
      dir,
    ]);
    expect([split.code, split.stderr.trim()]).toEqual([
      2,
      'apb: --task-split must be one of train, test, base, all for tau2:retail (got "dev")',
    ]);
  });
});

describe('apb exec --env tau2:airline --agent replay:gold', () => {
  it('gives all 50 airline tasks reward 1.0 with no judge (DB × COMMUNICATE), and the test split holds 20', async () => {
    const dir = temp();
    const all = await runCli([
      'exec',
      '--env',
      'tau2:airline',
      '--agent',
      'replay:gold',
      '--out',
      path.join(dir, 'all'),
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toContain(
      '50 task(s): 50 reward 1.0, 0 reward 0; final database as expected in 50; 0 tool error(s)',
    );
    const lines = readJsonl(path.join(dir, 'all', 'executions.jsonl'));
    expect(
      lines.filter((line) => line.reward_info.communicate === 1 && line.reward_info.db === 1),
    ).toHaveLength(50);
    const test = await runCli([
      'exec',
      '--env',
      'tau2:airline',
      '--agent',
      'replay:gold',
      '--task-split',
      'test',
      '--out',
      path.join(dir, 'test'),
    ]);
    expect(test.stderr).toContain('20 task(s): 20 reward 1.0');
  });
});
