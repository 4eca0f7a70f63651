/** The CLI's `RunReporter`: one updating line on a TTY, a line every few seconds otherwise (stderr). */
import type { CaseEndEvent, RunEndEvent, RunReporter, RunStartEvent } from '../pipeline/events.js';
import { say, stripControl } from './terminal.js';

export function createProgressReporter(options: { tty: boolean; intervalMs?: number; now?: () => number }): RunReporter {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? (options.tty ? 100 : 5000);
  const counts = { ok: 0, error: 0, parse_error: 0, judge_error: 0, correct: 0 };
  let total = 0;
  let done = 0;
  let started = now();
  let lastPrint = 0;

  const line = () => {
    const seconds = Math.max(0.001, (now() - started) / 1000);
    const rate = done / seconds;
    const left = total - done;
    const eta = rate > 0 ? Math.round(left / rate) : null;
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    return `[${bar}] ${done}/${total}  correct ${counts.correct}  error ${counts.error}  parse_error ${counts.parse_error}  judge_error ${counts.judge_error}  ${rate.toFixed(1)}/s${eta !== null ? `  eta ${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s` : ''}`;
  };
  const print = (force: boolean) => {
    const time = now();
    if (!force && time - lastPrint < interval) return;
    lastPrint = time;
    if (options.tty) process.stderr.write(`\r${line()}\u001b[K`);
    else say(line());
  };

  return {
    onRunStart(event: RunStartEvent) {
      total = event.total - event.alreadyDone;
      started = now();
      const resumed = event.alreadyDone > 0 ? ` (${event.alreadyDone} already finished, resuming)` : '';
      const skipped = event.invalidRecords > 0 ? `; ${event.invalidRecords} invalid record(s) skipped` : '';
      say(`apb: ${event.total} case run(s) into ${event.dir}${resumed}${skipped}`);
      print(true);
    },
    onCaseEnd(event: CaseEndEvent) {
      done += 1;
      if (event.plannerStatus === 'error') counts.error += 1;
      else if (event.plannerStatus === 'parse_error') counts.parse_error += 1;
      if (event.judgeStatus === 'judge_error') counts.judge_error += 1;
      if (event.correct) counts.correct += 1;
      print(done === total);
    },
    onWarning(message: string) {
      if (options.tty) process.stderr.write('\n');
      say(`warning: ${stripControl(message)}`);
    },
    onRunEnd(event: RunEndEvent) {
      if (done < total) print(true);
      if (options.tty) process.stderr.write('\n');
      say(event.interrupted ? `apb: interrupted; ${event.finished} finished case(s) kept in ${event.dir}` : `apb: done; results in ${event.dir}`);
    },
  };
}
