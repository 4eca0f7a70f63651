/**
 * Seen 7: failures are loud and early. An endpoint that answers every call with 404 "model does
 * not exist", rejects a parameter (400), or refuses connections stops the run at its first calls
 * (exit 1, the reason printed, the manifest `failed`, nothing more sent) instead of recording the
 * same error for every case; a run with no usable answer exits 1; every run's manifest counts its
 * failure reasons; the progress line shows retries and 429s.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readManifest, SECRET_KEY, tempDir, useScriptedServer } from '../engine/helpers.js';

const fake = useScriptedServer();
const env = { OPENAI_API_KEY: SECRET_KEY };
const run = (out: string, extra: string[] = [], baseUrl = fake.server.baseUrl('openai')) => [
  'run',
  '--model',
  'openai:gpt-4o',
  '--base-url',
  baseUrl,
  '--out',
  out,
  '--no-cache',
  ...extra,
];

/** A port nothing listens on (bound, read, closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('systematic failures stop the run at its first calls', () => {
  it('404 "model does not exist" on the built-in sample: exit 1 at the first call, reason printed, at most one wave of requests', async () => {
    fake.server.configure({
      respond: () => ({
        status: 404,
        message: 'The model `gpt-4o` does not exist or you do not have access to it.',
      }),
    });
    const out = path.join(tempDir(), 'run');
    const started = Date.now();
    const result = await cli(run(out), env);
    const seconds = (Date.now() - started) / 1000;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 404');
    expect(result.stderr).toContain('does not exist');
    expect(result.stderr).toContain(
      'the first call failed and nothing has succeeded, so the run stopped',
    );
    expect(result.stderr).not.toContain('internal error');
    // Concurrency 8: only the calls already on the wire were sent.
    expect(fake.server.count()).toBeLessThanOrEqual(8);
    expect(readManifest(out).status).toBe('failed');
    console.info(
      `404 run of the sample: exit ${result.code} after ${seconds.toFixed(1)} s, ${fake.server.count()} request(s)`,
    );
  }, 60_000);

  it('400 invalid parameter, the same for the first 3 calls: stops after exactly 3 at concurrency 1', async () => {
    fake.server.configure({
      respond: () => ({
        status: 400,
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
      }),
    });
    const out = path.join(tempDir(), 'run');
    const result = await cli(run(out, ['--concurrency', '1']), env);
    expect(result.code).toBe(1);
    expect(fake.server.count()).toBe(3);
    expect(result.stderr).toContain("HTTP 400: Unsupported parameter: 'temperature'");
    expect(result.stderr).toContain('the first 3 calls all failed the same way');
  }, 60_000);

  it('connection refused after retries: stops after 3 calls, naming the cause', async () => {
    const port = await closedPort();
    const out = path.join(tempDir(), 'run');
    const result = await cli(
      run(out, ['--concurrency', '1', '--max-retries', '1'], `http://127.0.0.1:${port}/v1`),
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/connection failed.*ECONNREFUSED/);
    expect(result.stderr).toContain('the first 3 calls all failed the same way');
    expect(readManifest(out).status).toBe('failed');
  }, 60_000);

  it("different failures per case are the cases' own: the run completes and counts them by reason", async () => {
    let index = 0;
    fake.server.configure({
      respond: (request) =>
        index++ % 2 === 0
          ? { status: 400, message: `context too long: ${index * 1000} tokens` }
          : fake.script.respond(request),
    });
    const out = path.join(tempDir(), 'run');
    const result = await cli(
      run(out, ['--concurrency', '1', '--splits', 'holistic_planning', '--limit', '6']),
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.status).toBe('complete');
    expect(manifest.counts.failure_reasons['planner client 400']).toBe(3);
  }, 60_000);
});

describe('no usable answer, retries and 429s', () => {
  it('a run in which every answer is unreadable completes but exits 1, naming the reason', async () => {
    fake.server.configure({
      respond: () => ({ text: 'I would look at the tools and then decide.' }),
    });
    const out = path.join(tempDir(), 'run');
    const result = await cli(run(out, ['--splits', 'holistic_planning', '--limit', '3']), env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /openai:gpt-4o: no usable answer in 3 case run\(s\) \(parse: [^)]*×3\); nothing was measured, exit 1/,
    );
    const manifest = readManifest(out);
    expect(manifest.status).toBe('complete');
    expect(Object.values(manifest.counts.failure_reasons)).toEqual([3]);
  }, 60_000);

  it('the progress line shows retries and 429s', async () => {
    fake.server.enqueue(
      ...Array.from({ length: 3 }, () => ({
        status: 429,
        message: 'slow down',
        headers: { 'retry-after-ms': '10' },
      })),
    );
    const out = path.join(tempDir(), 'run');
    const result = await cli(
      run(out, ['--concurrency', '1', '--splits', 'holistic_planning', '--limit', '2']),
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\] 2\/2 .* retries 3 {2}429s 3 /);
  }, 60_000);
});
