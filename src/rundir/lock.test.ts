import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  acquireRunLock,
  RUN_LOCK_FILE,
  runLockHolder,
  RunLockedError,
  withRunLock,
} from './lock.js';

const dirOf = () => path.join(mkdtempSync(path.join(tmpdir(), 'apb-lock-')), 'run');
/** A pid that surely ran and is gone: a child that has exited. */
const deadPid = () =>
  spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ]).stdout.toString();

describe('run-directory lock', () => {
  it('refuses a second writer, naming the directory and the holder (pid, host, command)', () => {
    const dir = dirOf();
    const lock = acquireRunLock(dir, 'run');
    try {
      let error: unknown;
      try {
        acquireRunLock(dir, 'judge');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(RunLockedError);
      expect((error as RunLockedError).code).toBe('locked');
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toContain(`apb run (pid ${process.pid} on ${hostname()}`);
      expect(runLockHolder(dir)).toMatchObject({ pid: process.pid, command: 'run' });
    } finally {
      lock.release();
    }
    expect(existsSync(path.join(dir, RUN_LOCK_FILE))).toBe(false);
    expect(runLockHolder(dir)).toBeNull();
  });

  it('takes over a stale lock whose process is gone on this host', () => {
    const dir = dirOf();
    const first = acquireRunLock(dir, 'run');
    writeFileSync(path.join(dir, 'predictions.jsonl'), '');
    first.release();
    writeFileSync(
      path.join(dir, RUN_LOCK_FILE),
      JSON.stringify({
        pid: Number(deadPid()),
        host: hostname(),
        command: 'run',
        started_at: '2020-01-01T00:00:00Z',
        token: 'old',
      }),
    );
    const lock = acquireRunLock(dir, 'score');
    expect(JSON.parse(readFileSync(path.join(dir, RUN_LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      command: 'score',
    });
    lock.release();
  });

  it('takes over a lock left by this very pid in an earlier life (containers reuse pid 1)', () => {
    const dir = dirOf();
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, RUN_LOCK_FILE),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        command: 'run',
        started_at: '2020-01-01T00:00:00Z',
        token: 'earlier',
      }),
    );
    acquireRunLock(dir, 'run').release();
  });

  it('never guesses about a lock from another host', () => {
    const dir = dirOf();
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, RUN_LOCK_FILE),
      JSON.stringify({
        pid: 1,
        host: 'elsewhere.example',
        command: 'exec',
        started_at: '2020-01-01T00:00:00Z',
        token: 't',
      }),
    );
    expect(() => acquireRunLock(dir, 'run')).toThrow(
      /apb exec \(pid 1 on elsewhere\.example.*remove .*\.apb-lock/,
    );
  });

  it('releases when the work throws, and removes a directory it created that stayed empty', async () => {
    const dir = dirOf();
    await expect(
      withRunLock(dir, 'run', async () => {
        throw new Error('input refused');
      }),
    ).rejects.toThrow('input refused');
    expect(existsSync(dir)).toBe(false);
  });

  it('release leaves a lock that is no longer its own', () => {
    const dir = dirOf();
    const lock = acquireRunLock(dir, 'run');
    const other = JSON.stringify({
      pid: process.pid,
      host: hostname(),
      command: 'merge',
      started_at: 'now',
      token: 'someone-else',
    });
    writeFileSync(path.join(dir, RUN_LOCK_FILE), other);
    lock.release();
    expect(readFileSync(path.join(dir, RUN_LOCK_FILE), 'utf8')).toBe(other);
  });
});
