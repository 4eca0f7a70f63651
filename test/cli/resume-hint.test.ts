/**
 * The hint after a run stopped on a systematic failure is true (issue 26): each command it names is
 * run here and does what it says. A bad --base-url leaves nothing answered: a rerun into the same
 * directory with another base URL is refused, so the hint says to use a new --out, which works. A
 * run that had answered cases before keeps them: the hint names the same command with
 * --retry-errors, which then finishes every case.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readManifest, SECRET_KEY, tempDir, useScriptedServer } from '../engine/helpers.js';

const fake = useScriptedServer();
const env = { OPENAI_API_KEY: SECRET_KEY };
const run = (out: string, baseUrl: string, extra: string[] = []) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  baseUrl,
  '--splits',
  'holistic',
  '--out',
  out,
  '--no-cache',
  '--max-retries',
  '0',
  '--concurrency',
  '1',
  ...extra,
];

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the hint after a systematic failure', () => {
  it('a bad --base-url: names a new --out (the same directory with another URL is refused)', async () => {
    const out = path.join(tempDir('apb-hint-'), 'run');
    const bad = `http://127.0.0.1:${await closedPort()}/v1`;
    const first = await cli(run(out, bad), env);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('no case was answered');
    expect(first.stderr).toContain('rerun with a new --out DIR');
    expect(first.stderr).not.toContain('rerun to resume');
    const same = await cli(run(out, fake.server.baseUrl('openai')), env);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('base_url');
    const fresh = await cli(run(`${out}-2`, fake.server.baseUrl('openai')), env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(readManifest(`${out}-2`).counts.predictions).toMatchObject({ error: 0 });
  }, 90_000);

  it('a run with answered cases: names the same command with --retry-errors, which finishes it', async () => {
    const out = path.join(tempDir('apb-hint-'), 'run');
    const url = fake.server.baseUrl('openai');
    expect((await cli(run(out, url, ['--limit', '2']), env)).code).toBe(0);
    fake.server.configure({ respond: () => ({ status: 400, message: 'Unsupported parameter' }) });
    const failed = await cli(run(out, url), env);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/the \d+ answered case\(s\) are kept in/);
    expect(failed.stderr).toMatch(
      /rerun the same command to resume \(add --retry-errors to send the \d+ failed case\(s\) again/,
    );
    fake.server.reset();
    fake.server.configure({ respond: (request) => fake.script.respond(request) });
    const resumed = await cli(run(out, url, ['--retry-errors']), env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readManifest(out).counts.predictions).toMatchObject({ error: 0 });
  }, 90_000);
});
