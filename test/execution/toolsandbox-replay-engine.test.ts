/**
 * The ToolSandbox replay as a library function (`replayToolSandbox`, engine/exec-toolsandbox.ts):
 * it writes what `apb exec --env toolsandbox --agent replay:FILE` writes, holds the run
 * directory's one-writer lock while it plays (a second writer on the same OUT, in this process or
 * through the CLI, is refused with the lock's message), and a stop ends it between scenarios.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayToolSandbox } from '../../src/index.js';
import { createToolSandboxEnvironment } from '../../src/execution/environments/toolsandbox/environment.js';
import { acquireRunLock, RunLockedError } from '../../src/rundir/lock.js';
import { runCli } from '../helpers/cli.js';

const SCENARIOS = ['cellular_off', 'get_cellular', 'wifi_off']; // in the environment's order
const tmp = () => mkdtempSync(path.join(tmpdir(), 'apb-ts-engine-'));

/** A replay file with the fixture's script of each scenario (exported from ToolSandbox's Python). */
function replayFile(dir: string): string {
  const { results } = JSON.parse(
    readFileSync(new URL('../fixtures/toolsandbox/replays.json', import.meta.url), 'utf8'),
  ) as { results: Array<{ replay: { scenario: string } }> };
  const scripts = new Map(results.map((result) => [result.replay.scenario, result.replay]));
  const file = path.join(dir, 'replays.jsonl');
  writeFileSync(file, SCENARIOS.map((name) => `${JSON.stringify(scripts.get(name))}\n`).join(''));
  return file;
}

function specOf(dir: string, out: string) {
  const environment = createToolSandboxEnvironment({
    selection: { subset: 'all', scenarios: SCENARIOS, variants: ['base'] },
  });
  const file = replayFile(dir);
  return {
    environment,
    replayFile: file,
    agent: `replay:${file}`,
    outDir: out,
    dumpStateDir: null,
  };
}

const lines = (out: string) =>
  readFileSync(path.join(out, 'executions.jsonl'), 'utf8').trim().split('\n');

describe('replayToolSandbox (the library call)', () => {
  it('plays each scripted scenario into executions.jsonl and releases the lock', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out');
    const summary = await replayToolSandbox(specOf(dir, out));
    expect(summary).toMatchObject({ scenarios: 3, minefieldHits: 0, interrupted: false });
    expect(summary.meanSimilarity).toBeGreaterThan(0);
    expect(summary.executionsFile).toBe(path.join(out, 'executions.jsonl'));
    expect(lines(out).map((line) => JSON.parse(line).task_id)).toEqual(SCENARIOS);
    // The replay's own files, and no lock left behind.
    expect(readdirSync(out).sort()).toEqual(['executions.jsonl', 'plans.jsonl']);
  });

  it('refuses a second writer on the same OUT with the lock message; the first one finishes', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out');
    const [first, second] = await Promise.allSettled([
      replayToolSandbox(specOf(dir, out)),
      replayToolSandbox(specOf(dir, out)),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { scenarios: 3 } });
    expect(second.status).toBe('rejected');
    const reason = (second as PromiseRejectedResult).reason as Error;
    expect(reason).toBeInstanceOf(RunLockedError);
    expect(reason.message).toContain(`${out} is being written by apb exec (pid ${process.pid}`);
    expect(lines(out)).toHaveLength(3);
  });

  it('a stop lets the scenario being played finish and starts no other', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out');
    const stop = new AbortController();
    // Queued before the first scenario is played: it runs at the first turn of the event loop.
    setImmediate(() => stop.abort());
    const summary = await replayToolSandbox({ ...specOf(dir, out), stop: stop.signal });
    expect(summary).toMatchObject({ scenarios: 1, interrupted: true });
    expect(lines(out)).toHaveLength(1);
  });
});

describe('apb exec --env toolsandbox --agent replay:FILE and the one-writer lock', () => {
  it('is refused (exit 2, the lock named) while another writer holds OUT, and writes nothing', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out');
    const file = replayFile(dir);
    const lock = acquireRunLock(out, 'exec');
    try {
      const args = ['exec', '--env', 'toolsandbox', '--subset', 'all', '--variants', 'base'];
      args.push('--scenarios', SCENARIOS.join(','), '--agent', `replay:${file}`, '--out', out);
      const result = await runCli(args);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${out} is being written by apb exec (pid ${process.pid}`);
      expect(existsSync(path.join(out, 'executions.jsonl'))).toBe(false);
    } finally {
      lock.release();
    }
  });
});
