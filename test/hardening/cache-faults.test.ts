/**
 * Seen 5: a bad cache aborts no run. A cache file that is not a database, or a stored reply that
 * is not JSON, is a miss with one warning naming the cache file and `--no-cache`; the run completes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  cli,
  completeLines,
  readManifest,
  SECRET_KEY,
  tempDir,
  useScriptedServer,
} from '../engine/helpers.js';

const fake = useScriptedServer();
const args = (out: string) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--splits',
  'holistic_planning',
  '--limit',
  '3',
];

describe('cache faults are misses', () => {
  it('a cache file that is not a database: one warning naming it and --no-cache, every call made, exit 0', async () => {
    const cacheDir = tempDir();
    const file = path.join(cacheDir, 'responses.sqlite');
    writeFileSync(
      file,
      'this is not a database, it is just text that is long enough to be read as a header',
    );
    const out = path.join(tempDir(), 'run');
    const result = await cli(args(out), { OPENAI_API_KEY: SECRET_KEY, APB_CACHE_DIR: cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('warning: the response cache'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(warnings[0]).toContain('--no-cache');
    expect(result.stderr).not.toContain('internal error');
    expect(completeLines(path.join(out, 'judgements.jsonl'))).toBe(3);
    expect(readManifest(out).status).toBe('complete');
    expect(fake.server.count()).toBe(3);
  }, 60_000);

  it('stored replies that are not JSON: misses with one warning; the calls are made again and the run completes', async () => {
    const cacheDir = tempDir();
    const first = await cli(args(path.join(tempDir(), 'run')), {
      OPENAI_API_KEY: SECRET_KEY,
      APB_CACHE_DIR: cacheDir,
    });
    expect(first.code, first.stderr).toBe(0);
    const database = new Database(path.join(cacheDir, 'responses.sqlite'));
    database.prepare("UPDATE responses SET reply = '{not json'").run();
    database.close();
    const out = path.join(tempDir(), 'run');
    const second = await cli(args(out), { OPENAI_API_KEY: SECRET_KEY, APB_CACHE_DIR: cacheDir });
    expect(second.code, second.stderr).toBe(0);
    expect(
      second.stderr.split('\n').filter((line) => line.startsWith('warning: the response cache')),
    ).toHaveLength(1);
    expect(second.stderr).toContain('--no-cache');
    expect(fake.server.count()).toBe(6);
    expect(completeLines(path.join(out, 'judgements.jsonl'))).toBe(3);
  }, 60_000);
});
