/**
 * A full disk is one line naming the file everywhere apb appends (issue 24: `exec --agent replay:`
 * on a full disk was "internal error", a raw `writeSync`). `/dev/full` answers every write with
 * ENOSPC, as a full file system does.
 */
import { closeSync, constants, existsSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLineSync } from '../../src/atomic-write.js';
import { ApbError } from '../../src/errors.js';
import { BatchStore } from '../../src/providers/batch/store.js';

describe.skipIf(!existsSync('/dev/full'))('a full disk', () => {
  it('an append (exec replay, exec store, refine journal, batch log) is one line naming the file', () => {
    const fd = openSync('/dev/full', constants.O_WRONLY);
    try {
      let thrown: unknown;
      try {
        appendLineSync(fd, 'runs/x/executions.jsonl', '{"task":"1"}\n');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApbError);
      expect((thrown as Error).message).toBe(
        'cannot write runs/x/executions.jsonl: no space left on the device',
      );
    } finally {
      closeSync(fd);
    }
  });

  it('the batch store refuses a batches.jsonl that is not apb’s (a bad batch key) naming file and line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-batch-store-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      path.join(dir, 'batches.jsonl'),
      `${JSON.stringify({ event: 'intent', batch_key: '../../etc/passwd', at: new Date().toISOString() })}\n`,
    );
    await expect(BatchStore.open(dir)).rejects.toThrow(
      `${path.join(dir, 'batches.jsonl')}:1: batch_key: not a batch key apb makes`,
    );
  });
});
