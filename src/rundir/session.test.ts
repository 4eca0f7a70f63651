import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunLockedError } from './lock.js';
import { runUnits } from './run-units.js';
import { jsonManifest, openSession, resumeKeys, withSession, type RunStatus } from './session.js';

interface TestManifest {
  status: RunStatus;
  done: number;
}
const readTest = (dir: string): TestManifest | null => {
  const file = path.join(dir, 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as TestManifest) : null;
};
const manifest = jsonManifest('manifest.json', readTest);
const Line = z.object({ unit: z.number() });
const tempDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'apb-session-')), 'run');

/** One run of the life cycle over units 0..count-1, as every command composes it. */
async function runOnce(dir: string, count: number, fail?: number, stop?: AbortSignal) {
  return withSession({ dir, command: 'test', manifest, stop }, async (session) => {
    const store = session.store('lines.jsonl', Line);
    const finished = await resumeKeys(store, (line) => String(line.unit));
    let done = 0;
    await session.follow(store, () => (done += 1));
    session.running({ status: 'running', done });
    const units = Array.from({ length: count }, (_, unit) => unit).filter(
      (unit) => !finished.has(String(unit)),
    );
    const end = await runUnits(
      session,
      units,
      async (unit) => {
        if (unit === fail) throw new Error(`unit ${unit} failed`);
        return { unit };
      },
      { concurrency: 2, ordered: true },
      (line) => store.append(line),
    );
    const status = session.statusOf(end);
    session.finish({ status, done });
    return { status, done, previous: session.previous, end };
  });
}

describe('the run-directory session', () => {
  it('runs, resumes without redoing finished units, and tallies what is there and what is appended', async () => {
    const dir = tempDir();
    const first = await runOnce(dir, 3);
    expect(first).toMatchObject({ status: 'complete', done: 3, previous: null });
    const second = await runOnce(dir, 5);
    expect(second).toMatchObject({ status: 'complete', done: 5, previous: { done: 3 } });
    expect(second.end.launched).toBe(2);
    expect(readTest(dir)).toEqual({ status: 'complete', done: 5 });
    expect(existsSync(path.join(dir, '.apb-lock'))).toBe(false);
  });

  it('ends failed on an unexpected error, writing the manifest and keeping the lines before it', async () => {
    const dir = tempDir();
    const result = await runOnce(dir, 6, 2);
    expect(result.status).toBe('failed');
    expect((result.end.failure as Error).message).toBe('unit 2 failed');
    expect(readTest(dir)?.status).toBe('failed');
    const lines = readFileSync(path.join(dir, 'lines.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines.map((line) => JSON.parse(line).unit)).toEqual([0, 1]);
  });

  it('ends interrupted after a stop, and refuses a second writer while open', async () => {
    const dir = tempDir();
    const stop = new AbortController();
    stop.abort();
    expect((await runOnce(dir, 4, undefined, stop.signal)).status).toBe('interrupted');
    const open = openSession({ dir, command: 'first', manifest });
    expect(() => openSession({ dir, command: 'second', manifest })).toThrow(RunLockedError);
    open.close();
    openSession({ dir, command: 'third', manifest }).close();
  });
});
