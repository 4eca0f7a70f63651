/**
 * `apb run --shard I/N` + `apb merge` through the real CLI on the real restbench-tmdb-apb data:
 * three shards merged equal one unsharded run; directories of different runs are refused by field.
 * The runs are real processes; `apb merge` is called through the CLI's `main` in process.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, runMain } from '../helpers/cli.js';

const RESTBENCH = path.join(REPO_ROOT, 'test/fixtures/datasets/restbench-tmdb-apb');
const TAU2 = path.join(REPO_ROOT, 'test/fixtures/datasets/tau2-bench-apb');
const work = mkdtempSync(path.join(tmpdir(), 'apb-merge-'));
const dir = (name: string) => path.join(work, name);
const lines = (runDir: string, file = 'judgements.jsonl') =>
  readFileSync(path.join(runDir, file), 'utf8').split('\n').filter(Boolean);
const json = (runDir: string, file: string) =>
  JSON.parse(readFileSync(path.join(runDir, file), 'utf8'));

async function run(...args: string[]) {
  const result = await runCli(['run', '--data', RESTBENCH, '--repeats', '2', ...args], {
    timeoutMs: 120_000,
  });
  expect(result.code, result.stderr).toBe(0);
}

describe('apb merge', () => {
  beforeAll(async () => {
    await run('--out', dir('full'));
    for (const index of [1, 2, 3])
      await run('--shard', `${index}/3`, '--out', dir(`shard-${index}`));
  }, 240_000);

  it('merges three shards into exactly one unsharded run: each case once, the same judgements and scores.json', async () => {
    const shardIds = [1, 2, 3].map((index) =>
      lines(dir(`shard-${index}`)).map(
        (line) => `${JSON.parse(line).id}#${JSON.parse(line).apb.prediction.repeat}`,
      ),
    );
    expect(shardIds.flat().sort()).toEqual(
      lines(dir('full'))
        .map((line) => `${JSON.parse(line).id}#${JSON.parse(line).apb.prediction.repeat}`)
        .sort(),
    );
    expect(new Set(shardIds.flat()).size).toBe(900);
    // Every repeat of a case sits in the case's shard.
    for (const ids of shardIds)
      for (const id of ids)
        expect(ids).toContain(id.replace(/#\d$/, id.endsWith('#0') ? '#1' : '#0'));
    const merged = await runMain([
      'merge',
      dir('shard-1'),
      dir('shard-2'),
      dir('shard-3'),
      '--out',
      dir('merged'),
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toContain('900 judgement(s), 900 prediction(s), status complete');
    expect(lines(dir('merged')).sort()).toEqual(lines(dir('full')).sort());
    expect(lines(dir('merged'), 'predictions.jsonl').sort()).toEqual(
      lines(dir('full'), 'predictions.jsonl').sort(),
    );
    expect(json(dir('merged'), 'scores.json')).toEqual(json(dir('full'), 'scores.json'));
    const manifest = json(dir('merged'), 'manifest.json');
    expect(manifest).toMatchObject({
      status: 'complete',
      selection: { shard: null },
      counts: json(dir('full'), 'manifest.json').counts,
      identity: json(dir('full'), 'manifest.json').identity,
    });
    expect(manifest.merge.sources.map((source: { shard: string }) => source.shard)).toEqual([
      '1/3',
      '2/3',
      '3/3',
    ]);
  }, 60_000);

  it('refuses directories of different runs, naming the field, and shards given twice', async () => {
    await runCli([
      'run',
      '--data',
      TAU2,
      '--shard',
      '1/3',
      '--repeats',
      '2',
      '--out',
      dir('tau2-1'),
    ]);
    const mixed = await runMain(['merge', dir('shard-1'), dir('tau2-1'), '--out', dir('mixed')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /cannot merge: the directories are not shards of one run\n\s+dataset_content_hash: "[0-9a-f]+" in .*shard-1, "[0-9a-f]+" in .*tau2-1/,
    );
    expect(mixed.stderr).not.toMatch(/\n\s+at /);
    await run('--shard', '2/3', '--protocol', 'official', '--out', dir('official-2'));
    const protocol = await runMain([
      'merge',
      dir('shard-1'),
      dir('official-2'),
      '--out',
      dir('mixed'),
    ]);
    expect(protocol.code).toBe(2);
    expect(protocol.stderr).toContain('protocol: "paper" in');
    const twice = await runMain(['merge', dir('shard-1'), dir('shard-1'), '--out', dir('mixed')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('shard 1/3 is given twice');
    const into = await runMain(['merge', dir('shard-1'), dir('shard-2'), '--out', dir('full')]);
    expect(into.code).toBe(2);
    expect(into.stderr).toContain('already holds a run');
  }, 120_000);

  it('says which shards are missing, and the merged directory resumes the rest as one run', async () => {
    const partial = await runMain([
      'merge',
      dir('shard-1'),
      dir('shard-3'),
      '--out',
      dir('partial'),
    ]);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stderr).toContain('shard(s) 2/3 not given');
    expect(json(dir('partial'), 'manifest.json')).toMatchObject({
      status: 'interrupted',
      merge: { missing_shards: [2] },
    });
    await run('--out', dir('partial'));
    expect(lines(dir('partial')).sort()).toEqual(lines(dir('full')).sort());
    expect(json(dir('partial'), 'scores.json')).toEqual(json(dir('full'), 'scores.json'));
  }, 60_000);
});
