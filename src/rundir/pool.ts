/**
 * The one bounded pool every command's units go through: at most `concurrency` tasks in flight,
 * launching stops on a halt or the first failure, and every launched task settles before the
 * pool returns. In `ordered` mode results are committed in input order (construction writes its
 * cases in the order of its inputs), otherwise as each task ends.
 */

/** How many tasks run at once, and whether results are committed in input order. */
export interface PoolOptions {
  concurrency: number;
  ordered?: boolean;
}

/** How the pool stops. */
export interface PoolControl {
  /** Checked before each launch: true stops launching (tasks in flight finish). */
  halted(): boolean;
  /** An error that only leaves its item undone (a budget refusal, an abort after a stop); any other is the pool's failure. */
  expected(error: unknown): boolean;
  /** Called once with the first failure, e.g. to cancel the calls in flight. */
  onFailure?(error: unknown): void;
}

/** Commits results in input order: a result waits until every earlier launched item has settled. */
class OrderedCommits<T, R> {
  private next = 0;
  private readonly settled = new Map<number, { item: T; result: R } | null>();

  constructor(private readonly commit: (result: R, item: T, index: number) => void) {}

  settle(index: number, entry: { item: T; result: R } | null): void {
    this.settled.set(index, entry);
    while (this.settled.has(this.next)) {
      const ready = this.settled.get(this.next);
      this.settled.delete(this.next);
      if (ready) this.commit(ready.result, ready.item, this.next);
      this.next += 1;
    }
  }
}

/**
 * Runs `task` over `items` (a plain or an async iterable, read lazily as slots free); `commit`
 * receives each result. Resolves when every launched task has settled; rethrows the first failure.
 */
export async function runPool<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  options: PoolOptions,
  task: (item: T, index: number) => Promise<R>,
  control: PoolControl,
  commit: (result: R, item: T, index: number) => void = () => {},
): Promise<void> {
  const concurrency = Math.max(1, options.concurrency);
  const ordered = options.ordered ? new OrderedCommits(commit) : null;
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  // One waiter woken when a slot frees: `Promise.race(inFlight)` at each launch would attach a
  // reaction to every task in flight (concurrency × items reactions over a run).
  let slotFreed: (() => void) | null = null;
  const fail = (error: unknown) => {
    if (control.expected(error) || failure) return;
    failure = { error };
    control.onFailure?.(error);
  };
  let index = 0;
  for await (const item of items) {
    while (inFlight.size >= concurrency) await new Promise<void>((wake) => (slotFreed = wake));
    slotFreed = null;
    if (failure || control.halted()) break;
    const at = index++;
    const running = task(item, at)
      .then(
        (result) => (ordered ? ordered.settle(at, { item, result }) : commit(result, item, at)),
        (error: unknown) => (ordered?.settle(at, null), fail(error)),
      )
      .catch(fail)
      .finally(() => {
        inFlight.delete(running);
        slotFreed?.();
      });
    inFlight.add(running);
  }
  await Promise.all(inFlight);
  if (failure) throw (failure as { error: unknown }).error;
}
