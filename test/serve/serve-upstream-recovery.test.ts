/**
 * `apb serve` is long-lived: after early upstream failures (three refused connections) it must
 * answer again as soon as the upstream is reachable. The real CLI on loopback, the upstream the
 * loopback fake started late on the port the server was pointed at.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

/** A port nothing listens on now (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const children: Array<{ kill(): void }> = [];
let upstream: FakeServer | null = null;
afterAll(async () => {
  for (const child of children) child.kill();
  await upstream?.close();
});

/** Starts `apb serve --mode direct` towards `upstreamUrl`; resolves with the URL it prints. */
function startServe(upstreamUrl: string): Promise<string> {
  const args = [
    ...['serve', '--mode', 'direct', '--model', 'openai-compatible:tested'],
    ...['--base-url', upstreamUrl, '--max-retries', '0', '--no-cache'],
  ];
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', APB_API_KEY: 'sk-test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = out.match(/^(http:\/\/127\.0\.0\.1:\d+\S*)\n/m)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`apb serve exited ${code}`)));
  });
}

const ask = (base: string) =>
  fetch(`${base.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tested', messages: [{ role: 'user', content: 'hello' }] }),
  });

describe('apb serve after early upstream failures', () => {
  it('answers again once the upstream is reachable (three refused connections, then success)', async () => {
    const port = await freePort();
    const serve = await startServe(`http://127.0.0.1:${port}/v1`);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await ask(serve);
      expect(refused.ok, `attempt ${attempt + 1}`).toBe(false);
    }
    upstream = await startFakeServer({ port });
    const answered = await ask(serve);
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe('ok');
    expect(upstream.count()).toBe(1);
  });
});
