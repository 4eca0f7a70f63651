import { describe, expect, it } from 'vitest';
import { onAbort } from './abort.js';

describe('onAbort', () => {
  it('calls every attached callback once when the signal aborts, and none that was detached', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    const detachB = onAbort(controller.signal, () => calls.push('b'));
    onAbort(controller.signal, () => calls.push('c'));
    detachB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('runs every watcher when one throws, then surfaces that error as uncaught', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const queued: Array<() => void> = [];
    const original = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (task) => void queued.push(task);
    try {
      onAbort(controller.signal, () => {
        throw new Error('watcher broke');
      });
      onAbort(controller.signal, () => calls.push('after'));
      controller.abort();
    } finally {
      globalThis.queueMicrotask = original;
    }
    expect(calls).toEqual(['after']);
    expect(queued).toHaveLength(1);
    expect(() => queued[0]!()).toThrow('watcher broke');
  });

  it('calls at once for a signal that has already aborted', () => {
    const calls: number[] = [];
    onAbort(AbortSignal.abort(), () => calls.push(1));
    expect(calls).toEqual([1]);
  });

  it('adds one listener to the signal however many callers watch it', () => {
    const controller = new AbortController();
    let added = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added += 1;
      return add(...args);
    }) as typeof add;
    const detaches = Array.from({ length: 100 }, () => onAbort(controller.signal, () => {}));
    detaches.forEach((detach) => detach());
    onAbort(controller.signal, () => {});
    expect(added).toBe(1);
  });
});
