/**
 * Ctrl-C during a run: the first stops new cases (those in flight finish), the second cancels the
 * calls in flight, the third exits at once. SIGTERM acts like the first Ctrl-C. See docs/engine.md.
 */
import { EXIT } from './outcome.js';
import { say } from './terminal.js';

/** The two stop signals a run takes, and the handler's removal. */
export interface Interrupts {
  /** Aborted by the first interrupt: launch nothing new. */
  stop: AbortSignal;
  /** Aborted by the second: cancel the calls in flight. */
  cancel: AbortSignal;
  dispose(): void;
}

/** Installs the SIGINT / SIGTERM handlers for one run. */
export function handleInterrupts(): Interrupts {
  const stop = new AbortController();
  const cancel = new AbortController();
  let count = 0;
  const onSignal = () => {
    count += 1;
    if (count === 1) {
      say('\napb: interrupt received: no new case starts; cases in flight finish (Ctrl-C again to cancel them)');
      stop.abort();
    } else if (count === 2) {
      say('\napb: cancelling the calls in flight; finished cases are kept (Ctrl-C again to quit at once)');
      cancel.abort();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    cancel: cancel.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Resolves at the first Ctrl-C or SIGTERM (for commands that serve until stopped: `apb view`, `apb serve`). */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
