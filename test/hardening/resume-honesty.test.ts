/**
 * Seen 4 and 11: resume never lies. A corrupt middle line in a run file is refused before anything
 * is spent (exit 2, FILE:LINE); a directory is never `complete` beside stale scores; a corrupt
 * manifest in --out is a one-line input error, not an internal one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readManifest, SECRET_KEY, tempDir, useScriptedServer } from '../engine/helpers.js';

const fake = useScriptedServer();
const args = (out: string) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--no-cache',
  '--splits',
  'holistic_planning',
  '--limit',
  '5',
];
const env = { OPENAI_API_KEY: SECRET_KEY };

function damageLine(file: string, index: number): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[index] = lines[index]!.slice(0, 40);
  writeFileSync(file, lines.join('\n'));
}

describe('resume honesty', () => {
  it.each(['judgements.jsonl', 'predictions.jsonl'])(
    'a corrupt middle line of %s: refused before any call (exit 2, FILE:LINE); nothing claims complete',
    async (name) => {
      const out = path.join(tempDir(), 'run');
      expect((await cli(args(out), env)).code).toBe(0);
      const scoresBefore = readFileSync(path.join(out, 'scores.json'), 'utf8');
      damageLine(path.join(out, name), 2);
      const requests = fake.server.count();
      const result = await cli(args(out), env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${path.join(out, name)}:3: (line): invalid JSON`);
      expect(result.stderr).toContain('repair or delete this line');
      expect(result.stderr).not.toMatch(/already finished|apb: done/);
      expect(fake.server.count()).toBe(requests);
      expect(readFileSync(path.join(out, 'scores.json'), 'utf8')).toBe(scoresBefore);
      expect(readManifest(out).status).toBe('complete');
    },
    60_000,
  );

  it('scores that cannot be written: exit 1 in one line naming the file, and the manifest says failed, not complete', async () => {
    const out = path.join(tempDir(), 'run');
    expect((await cli(args(out), env)).code).toBe(0);
    rmSync(path.join(out, 'scores.json'));
    mkdirSync(path.join(out, 'scores.json'));
    const result = await cli(args(out), env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `apb: cannot write ${path.join(out, 'scores.json')}: a directory of that name is in the way`,
    );
    expect(result.stderr).not.toContain('internal error');
    expect(readManifest(out).status).toBe('failed');
    rmSync(path.join(out, 'scores.json'), { recursive: true });
    expect((await cli(args(out), env)).code).toBe(0);
    expect(readManifest(out).status).toBe('complete');
  }, 60_000);

  it('a corrupt manifest in --out is one line naming the file, exit 2, not an internal error', async () => {
    const out = path.join(tempDir(), 'run');
    expect((await cli(args(out), env)).code).toBe(0);
    writeFileSync(path.join(out, 'manifest.json'), '{"apb_version": "0.1.0", "ident');
    const result = await cli(args(out), env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${path.join(out, 'manifest.json')}:1: (file): unreadable manifest`,
    );
    expect(result.stderr).not.toContain('internal error');
  }, 60_000);
});
