/** `--batch` progress on stderr: a line when a batch is submitted, changes status or counts, and is collected. */
import type { BatchEventInfo } from '../providers/batch/batcher.js';
import { say } from './terminal.js';

const count = (value: number) => value.toLocaleString('en-US');

/** The batcher's `onEvent`: one line per change, nothing for a poll that found the same status and counts. */
export function batchProgress(
  write: (line: string) => void = say,
): (event: BatchEventInfo) => void {
  const last = new Map<string, string>();
  return (event) => {
    const name = `batch ${event.id} (${event.provider}:${event.model}, ${count(event.requests)} request(s))`;
    if (event.kind === 'submitted') return write(`apb: ${name} submitted`);
    if (event.kind === 'failed')
      return write(
        `apb: ${name} failed: ${event.reason ?? 'no reason given'}; ${event.split ? 'its requests go into smaller batches' : 'not resubmitted (the same requests would fail again)'}`,
      );
    if (event.kind === 'timed-out')
      return write(
        `apb: ${name} still running at --batch-timeout: cancelled; its cases are left unanswered (rerun without --batch to answer them interactively)`,
      );
    if (event.kind === 'collected' && event.reason)
      return write(
        `apb: ${name} ended (${event.status ?? 'ended'}); results refused: ${event.reason}`,
      );
    if (event.kind === 'collected')
      return write(`apb: ${name} ended (${event.status ?? 'ended'}); results stored`);
    const counts = event.counts
      ? `, ${count(event.counts.succeeded)} succeeded, ${count(event.counts.failed)} failed of ${count(event.counts.total)}`
      : '';
    const text = `apb: ${name}: ${event.status ?? 'unknown'}${counts}`;
    if (last.get(event.id) === text) return;
    last.set(event.id, text);
    write(text);
  };
}
