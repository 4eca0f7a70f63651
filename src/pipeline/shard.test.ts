import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLITS } from '../dataset/case.js';
import { checkSelection, selectedCases, type Selection } from './select-cases.js';
import { fleetShare, formatShard, inShard, shardFromScheduler, shardOfId } from './shard.js';

const RESTBENCH = path.resolve('test/fixtures/datasets/restbench-tmdb-apb');

async function idsOf(selection: Selection): Promise<string[]> {
  const check = await checkSelection(selection, false);
  const ids: string[] = [];
  for await (const item of selectedCases(selection, check)) ids.push(item.id);
  expect(check.cases).toBe(ids.length);
  return ids;
}

/** A copy of the dataset with every split file's lines in reverse order. */
function reversedCopy(dir: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'apb-shard-'));
  cpSync(dir, copy, { recursive: true });
  for (const name of readdirSync(path.join(copy, 'data'))) {
    const file = path.join(copy, 'data', name);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${lines.reverse().join('\n')}\n`);
  }
  return copy;
}

describe('--shard I/N', () => {
  it('puts every id in exactly one shard, by its id alone', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `case-${index}`);
    for (const count of [1, 2, 3, 7]) {
      const sizes = Array.from(
        { length: count },
        (_, index) => ids.filter((id) => inShard(id, { index: index + 1, count })).length,
      );
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(ids.length);
      // Roughly even: every shard within 15 % of its share.
      for (const size of sizes)
        expect(Math.abs(size - ids.length / count)).toBeLessThan((0.15 * ids.length) / count + 1);
    }
    expect(shardOfId('restbench-tmdb-000-hp', 3)).toBe(shardOfId('restbench-tmdb-000-hp', 3));
    expect(formatShard({ index: 2, count: 5 })).toBe('2/5');
  });

  it('partitions a real dataset stably: reordering the files moves no case between shards', async () => {
    const base = { splits: [...SPLITS], repeats: 1 };
    const all = await idsOf({ ...base, datasetDir: RESTBENCH });
    const reversed = reversedCopy(RESTBENCH);
    const shards = [];
    for (let index = 1; index <= 3; index += 1) {
      const ids = await idsOf({ ...base, datasetDir: RESTBENCH, shard: { index, count: 3 } });
      expect(
        new Set(await idsOf({ ...base, datasetDir: reversed, shard: { index, count: 3 } })),
      ).toEqual(new Set(ids));
      expect(ids.length).toBeGreaterThan(100);
      shards.push(...ids);
    }
    expect(shards.sort()).toEqual([...all].sort());
  });
});

describe('--shard auto: the index a scheduler sets', () => {
  it.each([
    [{ JOB_COMPLETION_INDEX: '0' }, 3, { index: 1, count: 3 }, /^Kubernetes Indexed Job/],
    [{ JOB_COMPLETION_INDEX: '2' }, 3, { index: 3, count: 3 }, /JOB_COMPLETION_INDEX=2/],
    [
      { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '4', SLURM_ARRAY_TASK_COUNT: '3' },
      undefined,
      { index: 2, count: 3 },
      /^Slurm job array/,
    ],
    [
      { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '1' },
      undefined,
      { index: 1, count: 3 },
      /SLURM_ARRAY_TASK_ID=1/,
    ],
    [{ AWS_BATCH_JOB_ARRAY_INDEX: '1' }, 2, { index: 2, count: 2 }, /^AWS Batch array job/],
    [
      { APB_SHARD_INDEX: '2', APB_SHARD_COUNT: '4' },
      undefined,
      { index: 2, count: 4 },
      /APB_SHARD/,
    ],
  ])('%j with --shards %s is shard %j', (env, shards, shard, source) => {
    const found = shardFromScheduler(env, shards);
    expect(found.shard).toEqual(shard);
    expect(found.source).toMatch(source);
  });

  it('says what is missing: no scheduler, no count, an index past the count', () => {
    expect(() => shardFromScheduler({})).toThrow(/no scheduler index found/);
    expect(() => shardFromScheduler({ JOB_COMPLETION_INDEX: '1' })).toThrow(/add --shards N/);
    expect(() => shardFromScheduler({ JOB_COMPLETION_INDEX: '3' }, 3)).toThrow(
      /is shard 4 of 3, outside 1..3/,
    );
  });

  it('--fleet-limits: --rpm 600 over 3 shards is 200 each; tpm, concurrency and max-cost likewise', () => {
    expect(
      fleetShare({ rpm: 600, tpm: 90_000, concurrency: 8, maxCost: 1.5, other: 7 }, 3),
    ).toEqual({
      rpm: 200,
      tpm: 30_000,
      concurrency: 2,
      maxCost: 0.5,
    });
    expect(fleetShare({ concurrency: 2 }, 3)).toEqual({ concurrency: 1 });
  });
});
