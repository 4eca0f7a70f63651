/**
 * Stop signals during a run. Ctrl-C (SIGINT), SIGTERM, SIGHUP (a dropped SSH session) and SIGQUIT
 * all take one path: the first stops new cases (those in flight finish), the second cancels the
 * calls in flight, the third exits at once. Every ending but the third writes the manifest
 * (`interrupted`), the scores and the reports, and exits 130. See docs/engine.md.
 */
import { EXIT } from './outcome.js';
import { say } from './terminal.js';

/** The signals that interrupt a run; each would otherwise kill it on the spot (manifest left `running`). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/** The two stop signals a run takes, and the handler's removal. */
export interface Interrupts {
  /** Aborted by the first interrupt: launch nothing new. */
  stop: AbortSignal;
  /** Aborted by the second: cancel the calls in flight. */
  cancel: AbortSignal;
  dispose(): void;
}

/** After SIGHUP the terminal is gone: a write to it fails (EIO, EPIPE) and must not crash the ending. */
function ignoreClosedTerminal(): void {
  const ignore = () => {};
  process.stderr.on('error', ignore);
  process.stdout.on('error', ignore);
}

/** Installs the stop-signal handlers for one run. */
export function handleInterrupts(): Interrupts {
  const stop = new AbortController();
  const cancel = new AbortController();
  let count = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    count += 1;
    if (signal === 'SIGHUP') ignoreClosedTerminal();
    const what = signal === 'SIGINT' ? 'interrupt' : signal;
    if (count === 1) {
      say(
        `\napb: ${what} received: no new case starts; cases in flight finish (Ctrl-C again to cancel them)`,
      );
      stop.abort();
    } else if (count === 2) {
      say(
        '\napb: cancelling the calls in flight; finished cases are kept (Ctrl-C again to quit at once)',
      );
      cancel.abort();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    stop: stop.signal,
    cancel: cancel.signal,
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}

/** Resolves at the first stop signal (for commands that serve until stopped: `apb view`, `apb serve`). */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (signal === 'SIGHUP') ignoreClosedTerminal();
      for (const name of STOP_SIGNALS) process.off(name, stop);
      resolve();
    };
    for (const name of STOP_SIGNALS) process.on(name, stop);
  });
}
