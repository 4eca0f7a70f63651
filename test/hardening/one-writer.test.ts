/**
 * Seen 3 and 12: one writer per run directory, and run files never written through a symlink.
 * Two `apb run` into one `--out` at once: exactly one runs, the other exits 2 naming the holder,
 * and the files hold one line per case, every call paid once.
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cli,
  completeLines,
  readManifest,
  SECRET_KEY,
  startCli,
  tempDir,
  useScriptedServer,
} from '../engine/helpers.js';

const fake = useScriptedServer();

describe('one writer per run directory', () => {
  it('two concurrent runs into one --out: exactly one runs, the other exits 2 naming the holder; lines = cases', async () => {
    fake.server.configure({ latencyMs: 400 });
    const out = path.join(tempDir(), 'run');
    const args = [
      'run',
      '--model',
      'openai:gpt-4o',
      '--base-url',
      fake.server.baseUrl('openai'),
      '--out',
      out,
      '--no-cache',
      '--limit',
      '2',
      '--concurrency',
      '2',
    ];
    const env = { OPENAI_API_KEY: SECRET_KEY };
    const [first, second] = await Promise.all([
      startCli(args, env).result,
      startCli(args, env).result,
    ]);
    const codes = [first.code, second.code].sort();
    expect(codes, first.stderr + second.stderr).toEqual([0, 2]);
    const loser = first.code === 2 ? first : second;
    expect(loser.stderr).toMatch(
      new RegExp(
        `apb: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is being written by apb run \\(pid \\d+ on `,
      ),
    );
    expect(loser.stderr.trim().split('\n')).toHaveLength(1);
    const cases = 14; // 7 splits × --limit 2
    expect(completeLines(path.join(out, 'predictions.jsonl'))).toBe(cases);
    expect(completeLines(path.join(out, 'judgements.jsonl'))).toBe(cases);
    expect(fake.server.count()).toBe(cases);
    expect(readManifest(out).status).toBe('complete');
  }, 90_000);

  it('apb score replaces a scores.json symlink planted in the run directory instead of writing through it', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'run');
    expect((await cli(['run', '--out', out, '--limit', '1'])).code).toBe(0);
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const scores = path.join(out, 'scores.json');
    const before = readFileSync(scores, 'utf8');
    // Plant the link where scores.json was.
    rmSync(scores);
    symlinkSync(victim, scores);
    const result = await cli(['score', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(scores).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(scores, 'utf8'))).toEqual(JSON.parse(before));
  }, 60_000);

  it('a run refuses a predictions.jsonl symlink planted in its --out (exit 1, file named, target untouched)', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'run');
    mkdirSync(out);
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, path.join(out, 'predictions.jsonl'));
    const result = await cli(['run', '--out', out, '--limit', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `cannot write ${path.join(out, 'predictions.jsonl')}: it is a symbolic link (refused)`,
    );
    expect(result.stderr).not.toContain('internal error');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  }, 60_000);
});
