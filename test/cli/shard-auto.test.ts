/**
 * `--shard auto` under the variables a scheduler sets (issue 24's acceptance): three runs with a
 * Slurm job array's environment and three with a Kubernetes Indexed Job's, each merged, equal one
 * unsharded run of the same cases (the real CLI, offline, on the built-in sample). The commands are
 * the ones docs/schedulers.md shows.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'apb-shard-auto-'));
const dir = (name: string) => path.join(work, name);
const RUN = ['run', '--model', 'baseline:heuristic'];
const sorted = (runDir: string, file: string) =>
  readFileSync(path.join(runDir, file), 'utf8').split('\n').filter(Boolean).sort();

const SCHEDULERS = {
  slurm: (task: number) => ({
    env: {
      SLURM_ARRAY_TASK_ID: String(task + 1),
      SLURM_ARRAY_TASK_MIN: '1',
      SLURM_ARRAY_TASK_COUNT: '3',
    },
    args: [] as string[],
    source: /from Slurm job array \(SLURM_ARRAY_TASK_ID=\d/,
  }),
  kubernetes: (task: number) => ({
    env: { JOB_COMPLETION_INDEX: String(task) },
    args: ['--shards', '3'],
    source: /from Kubernetes Indexed Job \(JOB_COMPLETION_INDEX=\d\)/,
  }),
};

beforeAll(async () => {
  const full = await runCli([...RUN, '--out', dir('full')], { timeoutMs: 120_000 });
  expect(full.code, full.stderr).toBe(0);
}, 180_000);

describe.each(Object.entries(SCHEDULERS))('--shard auto under %s', (name, scheduler) => {
  it('three tasks, merged, equal one unsharded run', async () => {
    for (const task of [0, 1, 2]) {
      const { env, args, source } = scheduler(task);
      const result = await runCli(
        [...RUN, '--shard', 'auto', ...args, '--out', dir(`${name}-${task}`)],
        { env, timeoutMs: 120_000 },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`apb: --shard auto: shard ${task + 1}/3 from`);
      expect(result.stderr).toMatch(source);
    }
    const merged = await runCli(
      ['merge', ...[0, 1, 2].map((task) => dir(`${name}-${task}`)), '--out', dir(`${name}-merged`)],
      { timeoutMs: 120_000 },
    );
    expect(merged.code, merged.stderr).toBe(0);
    for (const file of ['predictions.jsonl', 'judgements.jsonl'])
      expect(sorted(dir(`${name}-merged`), file)).toEqual(sorted(dir('full'), file));
    expect(
      JSON.parse(readFileSync(path.join(dir(`${name}-merged`), 'scores.json'), 'utf8')),
    ).toEqual(JSON.parse(readFileSync(path.join(dir('full'), 'scores.json'), 'utf8')));
  }, 240_000);
});
