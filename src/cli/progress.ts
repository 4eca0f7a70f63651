/**
 * The CLI's `RunReporter`: one updating line on a TTY, a line every few seconds otherwise (stderr).
 * Several runs of one command (one per model) report through `forRun(label)` into one line with their sums.
 */
import type { CaseEndEvent, RunEndEvent, RunReporter, RunStartEvent } from '../pipeline/events.js';
import { fitLine, terminalWidth } from './fit.js';
import { say, stripControl } from './terminal.js';

/** A progress line for one run, or for several at once through `forRun`. */
export interface ProgressReporter extends RunReporter {
  /** The reporter of one of several runs (its start and end lines name `label`). */
  forRun(label: string): RunReporter;
}

interface Counts {
  total: number;
  done: number;
  ok: number;
  error: number;
  parse_error: number;
  judge_error: number;
  correct: number;
}

/** Calls the engine is waiting on: retries made so far and 429 answers received (live, from the providers). */
export interface Traffic {
  retries: number;
  rateLimited: number;
}

const emptyCounts = (): Counts => ({
  total: 0,
  done: 0,
  ok: 0,
  error: 0,
  parse_error: 0,
  judge_error: 0,
  correct: 0,
});

/** One status line on stderr: rewritten in place on a TTY, otherwise printed at most every `intervalMs` (5 s). */
export interface StatusLine {
  /** Prints the line (made only when it is printed) unless printed within the interval; `force` prints anyway. */
  print(line: () => string, force: boolean): void;
  /** Ends a line being rewritten in place, so what is printed next starts on a line of its own. */
  newline(): void;
}

/** The status line of a command; `quiet` prints nothing. */
export function createStatusLine(options: {
  tty: boolean;
  intervalMs?: number;
  now?: () => number;
  quiet?: boolean;
}): StatusLine {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? (options.tty ? 100 : 5000);
  let lastPrint = 0;
  // On a TTY the line is rewritten in place; anything else printed first ends it.
  let dirty = false;
  return {
    print(line, force) {
      if (options.quiet) return;
      const time = now();
      if (!force && time - lastPrint < interval) return;
      lastPrint = time;
      if (options.tty) {
        process.stderr.write(`\r${fitLine(line(), terminalWidth())}\u001b[K`);
        dirty = true;
      } else say(line());
    },
    newline() {
      if (dirty) process.stderr.write('\n');
      dirty = false;
    },
  };
}

/** `[########................] 3/9  …  0.5/s  eta 0m12s`: the bar, the count, `middle`, the rate and what is left. */
export function progressText(
  done: number,
  total: number,
  elapsedMs: number,
  middle: string,
): string {
  const seconds = Math.max(0.001, elapsedMs / 1000);
  const rate = done / seconds;
  const eta = rate > 0 ? Math.round((total - done) / rate) : null;
  const width = 24;
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  return `[${bar}] ${done}/${total}  ${middle}  ${rate.toFixed(1)}/s${eta !== null ? `  eta ${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s` : ''}`;
}

/** The progress line of the counts so far. */
function countsText(sum: Counts, elapsedMs: number, traffic: Traffic | undefined): string {
  // Retries and 429s show as soon as there is one: a run that only waits on them must not look stuck.
  const waits =
    traffic && (traffic.retries > 0 || traffic.rateLimited > 0)
      ? `  retries ${traffic.retries}  429s ${traffic.rateLimited}`
      : '';
  return progressText(
    sum.done,
    sum.total,
    elapsedMs,
    `correct ${sum.correct}  error ${sum.error}  parse_error ${sum.parse_error}  judge_error ${sum.judge_error}${waits}`,
  );
}

/** One finished case into the counts. */
function countCase(sum: Counts, event: CaseEndEvent): void {
  sum.done += 1;
  if (event.plannerStatus === 'error') sum.error += 1;
  else if (event.plannerStatus === 'parse_error') sum.parse_error += 1;
  if (event.judgeStatus === 'judge_error') sum.judge_error += 1;
  if (event.correct) sum.correct += 1;
}

/**
 * `quiet`: only warnings; `summary`: a summary follows the run, so a finished run prints no "done" line
 * (an interrupted one still says what was kept).
 */
export function createProgressReporter(options: {
  tty: boolean;
  intervalMs?: number;
  now?: () => number;
  runs?: number;
  quiet?: boolean;
  summary?: boolean;
  traffic?: () => Traffic;
}): ProgressReporter {
  const now = options.now ?? Date.now;
  const status = createStatusLine(options);
  const sum = emptyCounts();
  let started: number | null = null;
  let open = options.runs ?? 1;
  const line = () => countsText(sum, now() - (started ?? now()), options.traffic?.());
  const print = (force: boolean) => status.print(line, force);
  const newline = () => status.newline();

  const reporter = (label: string | null): RunReporter => {
    const prefix = label ? `${label}: ` : '';
    return {
      onRunStart(event: RunStartEvent) {
        started ??= now();
        sum.total += event.total - event.alreadyDone;
        const resumed =
          event.alreadyDone > 0 ? ` (${event.alreadyDone} already finished, resuming)` : '';
        const skipped =
          event.invalidRecords > 0 ? `; ${event.invalidRecords} invalid record(s) skipped` : '';
        if (options.quiet) return;
        newline();
        say(`apb: ${prefix}${event.total} case run(s) into ${event.dir}${resumed}${skipped}`);
        print(true);
      },
      onCaseEnd(event: CaseEndEvent) {
        countCase(sum, event);
        print(sum.done === sum.total);
      },
      onWarning(message: string) {
        newline();
        say(`warning: ${prefix}${stripControl(message)}`);
      },
      onRunEnd(event: RunEndEvent) {
        open -= 1;
        if (open <= 0 && sum.done < sum.total) print(true);
        if (options.quiet || (options.summary && !event.interrupted)) return newline();
        newline();
        say(
          event.interrupted
            ? `apb: ${prefix}interrupted; ${event.finished} finished case(s) kept in ${event.dir}`
            : `apb: ${prefix}done; results in ${event.dir}`,
        );
      },
    };
  };
  return {
    ...reporter(null),
    forRun: (label) => ((options.runs ?? 1) > 1 ? reporter(label) : reporter(null)),
  };
}
