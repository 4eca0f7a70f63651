/** A bounded pool for a command's per-case work: at most N tasks in flight, launching stops on a halt or the first failure. */

/** How the pool stops. */
export interface PoolControl {
  /** Checked before each launch: true stops launching (tasks in flight finish). */
  halted(): boolean;
  /** An error that only leaves its item undone (e.g. a budget refusal, an abort after a stop); any other is the pool's failure. */
  expected(error: unknown): boolean;
  /** Called once with the first failure, e.g. to cancel the calls in flight. */
  onFailure?(error: unknown): void;
}

/** Runs `task` over `items`; resolves when every launched task has settled, and rethrows the first failure. */
export async function runPool<T>(
  items: Iterable<T>,
  concurrency: number,
  task: (item: T) => Promise<void>,
  control: PoolControl,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  // One waiter woken when a slot frees, rather than a race over every task in flight at each launch.
  let slotFreed: (() => void) | null = null;
  for (const item of items) {
    while (inFlight.size >= concurrency)
      await new Promise<void>((resolve) => (slotFreed = resolve));
    slotFreed = null;
    if (failure || control.halted()) break;
    const running = task(item)
      .catch((error: unknown) => {
        if (control.expected(error) || failure) return;
        failure = error;
        control.onFailure?.(error);
      })
      .finally(() => {
        inFlight.delete(running);
        slotFreed?.();
      });
    inFlight.add(running);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
}
