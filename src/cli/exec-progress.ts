/**
 * `apb exec`'s progress line (stderr), like `apb run`'s: executions done of those to run, the mean reward of each
 * mode so far with its n, infrastructure errors, and the retries and 429s of this invocation; rewritten in place
 * on a TTY, a line every few seconds otherwise, nothing with `--quiet`.
 */
import type { ExecutionLine } from '../execution/records.js';
import { fixed } from '../report/numbers.js';
import { createStatusLine, progressText } from './progress.js';
import { say } from './terminal.js';

/** The exec progress line's handle. */
export interface ExecProgress {
  start(event: { total: number; alreadyDone: number; dir: string; modes: readonly string[] }): void;
  onExecution(line: ExecutionLine): void;
  /** Ends the line (the summary follows). */
  end(): void;
}

/** This invocation's retries and 429s, read when the line is printed. */
export type CallCounts = () => { retries: number; rateLimited: number };

/** A progress line for one exec run. */
export function createExecProgress(options: {
  tty: boolean;
  quiet?: boolean;
  intervalMs?: number;
  now?: () => number;
  calls: CallCounts;
}): ExecProgress {
  const now = options.now ?? Date.now;
  const status = createStatusLine(options);
  const modes = new Map<string, { sum: number; n: number }>();
  let total = 0;
  let done = 0;
  let infrastructure = 0;
  let started = now();
  const line = () => {
    const rewards = [...modes.entries()].map(
      ([mode, entry]) =>
        `${mode} ${entry.n > 0 ? fixed(entry.sum / entry.n, 2) : '–'} (n=${entry.n})`,
    );
    const { retries, rateLimited } = options.calls();
    return progressText(
      done,
      total,
      now() - started,
      [
        ...rewards,
        `infra errors ${infrastructure}`,
        `retries ${retries}`,
        `429s ${rateLimited}`,
      ].join('  '),
    );
  };
  return {
    start(event) {
      started = now();
      total = event.total - event.alreadyDone;
      for (const mode of event.modes) modes.set(mode, { sum: 0, n: 0 });
      if (options.quiet) return;
      const resumed =
        event.alreadyDone > 0 ? ` (${event.alreadyDone} already finished, resuming)` : '';
      say(`apb: ${event.total} execution(s) into ${event.dir}${resumed}`);
      status.print(line, true);
    },
    onExecution(execution) {
      done += 1;
      const entry = modes.get(execution.mode) ?? { sum: 0, n: 0 };
      if (execution.termination === 'infrastructure_error') infrastructure += 1;
      else if (execution.reward !== null) {
        entry.sum += execution.reward;
        entry.n += 1;
      }
      modes.set(execution.mode, entry);
      status.print(line, done === total);
    },
    end() {
      if (done < total) status.print(line, true);
      status.newline();
    },
  };
}
