/**
 * serve's plan journal on the run-directory core: the `--out` folder is locked for the server's
 * lifetime (a second server there gets the lock's error, naming the first), a torn last line a
 * crash left in `serve-plans.jsonl` is cut when the log opens, and each line is written as before
 * (redacted as one text, no `schema_version`) and read back through the file's schema.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServing, type ServeSpec } from '../../src/engine/serve.js';
import { RUN_LOCK_FILE, RunLockedError } from '../../src/rundir/lock.js';
import { parseRunFileValue } from '../../src/rundir/schemas/index.js';
import { openPlanLog, type ServePlanEntry } from '../../src/serve/plan-log.js';

const dir = mkdtempSync(path.join(tmpdir(), 'apb-plan-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (conversation: string, request: string): ServePlanEntry => ({
  conversation,
  mode: 'plan-first',
  model: 'openai-compatible:qwen3',
  at: '2026-01-01T00:00:00.000Z',
  request,
  plan: {
    status: 'ok',
    text: '1. look up the order',
    parsed: null,
    usage: null,
    cached: false,
    prompt_version: 'plan@1',
  },
});

function spec(out: string): ServeSpec {
  return {
    mode: 'direct',
    model: 'openai-compatible:qwen3',
    // Never called: direct mode forwards only what a client sends, and no client is started.
    baseUrl: 'http://127.0.0.1:9/v1',
    taxonomy: false,
    port: 0,
    host: '127.0.0.1',
    planRoles: ['agent'],
    out,
    concurrency: 1,
    timeoutMs: 1000,
    maxRetries: 0,
    cache: false,
    cacheDir: path.join(dir, 'cache'),
    sampling: {},
  };
}

describe('apb serve --out: one server per plan log', () => {
  it('refuses a second server on the same --out while the first runs, then frees it', async () => {
    const out = path.join(dir, 'served');
    const first = await startServing(spec(out));
    try {
      const second = startServing(spec(out));
      await expect(second).rejects.toThrow(RunLockedError);
      await expect(second).rejects.toThrow(/served is being written by apb serve \(pid \d+/);
      expect(existsSync(path.join(out, RUN_LOCK_FILE))).toBe(true);
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(out, RUN_LOCK_FILE))).toBe(false);
    // A crash mid-line: the next server cuts the torn line and says so.
    writeFileSync(path.join(out, 'serve-plans.jsonl'), '{"conversation":"c1","mo');
    const said: string[] = [];
    const third = await startServing(spec(out), (message) => said.push(message));
    await third.close();
    expect(said).toEqual([expect.stringMatching(/dropped a half-written line of .*serve-plans/)]);
    expect(readFileSync(path.join(out, 'serve-plans.jsonl'), 'utf8')).toBe('');
  });
});

describe('serve-plans.jsonl through the rundir store', () => {
  it('cuts a torn last line left by a crash, keeping the lines before it', () => {
    const out = path.join(dir, 'torn');
    mkdirSync(out);
    const whole = `${JSON.stringify(entry('c1', 'cancel #W1'))}\n`;
    const file = path.join(out, 'serve-plans.jsonl');
    writeFileSync(file, `${whole}{"conversation":"c2","mo`);
    const log = openPlanLog(out);
    expect(log.tornLineDropped).toBe(true);
    log.append(entry('c3', 'return #W2'));
    log.close();
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
    expect(lines).toHaveLength(2);
    expect(`${lines[0]}\n`).toBe(whole);
    const read = lines.map((text, index) =>
      parseRunFileValue('servePlans', JSON.parse(text), { file, line: index + 1 }),
    );
    expect(read.map((line) => line.conversation)).toEqual(['c1', 'c3']);
    expect(read.every((line) => line.schema_version === 1)).toBe(true);
  });

  it('writes each line as before: one redacted JSON text, no schema_version', () => {
    const out = path.join(dir, 'redacted');
    const log = openPlanLog(out);
    expect(log.tornLineDropped).toBe(false);
    const asked = entry('c1', 'use sk-abcdefgh12 and Bearer abc.def-123');
    log.append(asked);
    log.close();
    log.close();
    const text = readFileSync(path.join(out, 'serve-plans.jsonl'), 'utf8');
    expect(text).toBe(
      `${JSON.stringify(asked)
        .replace('sk-abcdefgh12', 'sk-***')
        .replace('Bearer abc.def-123', 'Bearer ***')}\n`,
    );
    expect(text).not.toContain('schema_version');
    expect(existsSync(path.join(out, RUN_LOCK_FILE))).toBe(false);
  });
});
