import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLITS } from '../dataset/case.js';
import { checkSelection, selectedCases, type Selection } from './select-cases.js';
import { formatShard, inShard, shardOfId } from './shard.js';

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
