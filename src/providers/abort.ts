/**
 * Listening for an abort without piling listeners onto a long-lived signal. Every call in flight
 * watches the run's signal (for a second Ctrl-C or a fatal error); with `addEventListener` that is
 * one listener per call, and Node's EventTarget walks its whole listener list on every add and
 * remove. Here each signal gets one listener, which fans out to a set.
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts (at once if it already has); returns the function that stops watching. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => {};
  }
  let callbacks = watchers.get(signal);
  if (!callbacks) {
    const set = new Set<() => void>();
    signal.addEventListener(
      'abort',
      () => {
        // Every watcher runs even if one throws; the first error then surfaces as an uncaught
        // exception, as it would have from a listener of its own.
        let failure: { error: unknown } | null = null;
        for (const each of [...set]) {
          try {
            each();
          } catch (error) {
            failure ??= { error };
          }
        }
        set.clear();
        if (failure)
          queueMicrotask(() => {
            throw failure.error;
          });
      },
      { once: true },
    );
    watchers.set(signal, set);
    callbacks = set;
  }
  const watching = callbacks;
  watching.add(callback);
  return () => void watching.delete(callback);
}
