import { describe, expect, it } from 'vitest';
import type { ConstructionModel } from './model.js';
import { mapInOrder, type StepContext } from './step.js';

/** A model that only carries a concurrency: `mapInOrder` never calls it. */
const modelOf = (concurrency: number): ConstructionModel => ({
  id: 'fake:concurrent',
  concurrency,
  usage: { calls: 0, cached: 0, failed: 0, inputTokens: 0, outputTokens: 0 },
  ask: () => Promise.reject(new Error('not called')),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Work whose later items end first, recording how many ran at once. */
function staggered() {
  const seen = { inFlight: 0, most: 0, started: 0 };
  const work = async (item: number) => {
    seen.started += 1;
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    await sleep(5 * (6 - item));
    seen.inFlight -= 1;
    return `case-${item}`;
  };
  return { seen, work };
}

describe('mapInOrder (a step over the one pool)', () => {
  it('keeps input order with a concurrent model, at most its concurrency at once', async () => {
    const { seen, work } = staggered();
    const progress: Array<[number, number]> = [];
    const context: StepContext = {
      seed: 1,
      model: modelOf(3),
      onItem: (done, total) => progress.push([done, total]),
    };
    const results = await mapInOrder([0, 1, 2, 3, 4, 5], context, work);
    expect(results).toEqual(['case-0', 'case-1', 'case-2', 'case-3', 'case-4', 'case-5']);
    expect(seen.most).toBe(3);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6].map((done) => [done, 6]));
  });

  it('runs a deterministic step (no model) one item at a time, sync work included', async () => {
    const { seen, work } = staggered();
    expect(await mapInOrder([0, 1, 2], { seed: 1 }, work)).toEqual(['case-0', 'case-1', 'case-2']);
    expect(seen.most).toBe(1);
    expect(await mapInOrder(['a', 'b'], { seed: 1 }, (item) => item.toUpperCase())).toEqual([
      'A',
      'B',
    ]);
  });

  it('stops launching at the first failure, thrown once the items in flight settled', async () => {
    const { seen, work } = staggered();
    const failing = async (item: number) => {
      if (item === 5) await sleep(1).then(() => Promise.reject(new Error('item 5 failed')));
      return work(item);
    };
    // Item 5 fails first, while item 0 runs and 1–4 wait to launch behind them.
    const items = [5, 0, 1, 2, 3, 4];
    await expect(mapInOrder(items, { seed: 1, model: modelOf(2) }, failing)).rejects.toThrow(
      'item 5 failed',
    );
    expect(seen.inFlight).toBe(0);
    await sleep(60);
    expect(seen.started).toBe(1);
  });

  it('throws a synchronous failure of the work as the step failure', async () => {
    const work = (item: number) => {
      if (item === 1) throw new Error('bad item');
      return item;
    };
    await expect(mapInOrder([0, 1, 2], { seed: 1 }, work)).rejects.toThrow('bad item');
  });
});
