import { describe, expect, it } from 'vitest';
import { runPool } from './pool.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = { halted: () => false, expected: () => false };

describe('runPool', () => {
  it('keeps at most N tasks in flight and runs every item', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    await runPool(
      [1, 2, 3, 4, 5, 6, 7],
      { concurrency: 3 },
      async (item) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await sleep(5 + (item % 3) * 3);
        inFlight -= 1;
        done.push(item);
      },
      never,
    );
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('commits in input order in ordered mode, however the tasks finish', async () => {
    const committed: number[] = [];
    const finished: number[] = [];
    await runPool(
      [40, 5, 20, 1, 10],
      { concurrency: 5, ordered: true },
      async (ms) => (await sleep(ms), finished.push(ms), ms * 2),
      never,
      (result) => committed.push(result),
    );
    expect(finished).not.toEqual([40, 5, 20, 1, 10]);
    expect(committed).toEqual([80, 10, 40, 2, 20]);
  });

  it('stops launching on the first failure, lets tasks in flight settle, and rethrows it', async () => {
    const started: number[] = [];
    let settled = 0;
    const failures: unknown[] = [];
    const error = await runPool(
      [1, 2, 3, 4, 5, 6],
      { concurrency: 2 },
      async (item) => {
        started.push(item);
        await sleep(item === 2 ? 1 : 10);
        settled += 1;
        if (item === 2) throw new Error('boom');
      },
      { ...never, onFailure: (failure) => failures.push(failure) },
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('boom');
    expect(started).toEqual([1, 2]);
    expect(settled).toBe(2);
    expect(failures).toHaveLength(1);
  });

  it('treats an expected error as the item left undone, and stops launching once halted', async () => {
    let launched = 0;
    await runPool(
      [1, 2, 3, 4, 5],
      { concurrency: 1 },
      async (item) => {
        launched += 1;
        if (item === 1) throw new Error('refused');
      },
      { halted: () => launched >= 3, expected: (error) => (error as Error).message === 'refused' },
    );
    expect(launched).toBe(3);
  });

  it('reads an async iterable lazily, as slots free', async () => {
    let pulled = 0;
    async function* items() {
      for (let index = 0; index < 10; index += 1) {
        pulled += 1;
        yield index;
      }
    }
    let seenAtFirst = -1;
    await runPool(
      items(),
      { concurrency: 2 },
      async (item) => {
        if (item === 0) seenAtFirst = pulled;
        await sleep(1);
      },
      never,
    );
    expect(seenAtFirst).toBe(1);
    expect(pulled).toBe(10);
  });
});
