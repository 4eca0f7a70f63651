/** `apb view`: the server serves only its page and JSON endpoints on 127.0.0.1, follows a growing run, and stops on SIGINT. */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../../src/report/viewer/server.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { fakeApbLine, jsonl } from '../../src/report/fake-lines.fixture.js';
import { fakeLeaderboard } from '../../src/report/fake-leaderboard.fixture.js';

function runDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'apb-view-'));
  writeFileSync(
    path.join(dir, 'judgements.jsonl'),
    jsonl(fakeLeaderboard(['m1']).map(fakeApbLine)),
  );
  return dir;
}

/** A raw HTTP request, so the Host header and method can be anything. */
function raw(
  port: number,
  options: { path?: string; method?: string; host?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let viewer: Viewer | null = null;
afterEach(async () => {
  await viewer?.close();
  viewer = null;
});

describe('viewer server', () => {
  it('serves the page and JSON endpoints on 127.0.0.1 only, and nothing else', async () => {
    viewer = await startViewer([runDir()], { port: 0 });
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await raw(viewer.port);
    expect(page.status).toBe(200);
    expect(page.body).toContain('connect-src &#39;self&#39;');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const status = JSON.parse((await raw(viewer.port, { path: '/api/status' })).body);
    expect(status).toMatchObject({ judgements: 72, running: false });
    expect(
      JSON.parse((await raw(viewer.port, { path: '/api/report.json' })).body).tables.table1,
    ).toHaveLength(1);
    expect((await raw(viewer.port, { path: '/../judgements.jsonl' })).status).toBe(404);
    expect((await raw(viewer.port, { path: '/judgements.jsonl' })).status).toBe(404);
    expect((await raw(viewer.port, { method: 'POST' })).status).toBe(405);
    expect((await raw(viewer.port, { host: 'attacker.example:80' })).status).toBe(421);
  });

  it('re-reads judgements.jsonl when it grows, ignoring a half-written last line', async () => {
    const dir = runDir();
    viewer = await startViewer([dir], { port: 0, minIntervalMs: 0 });
    const before = JSON.parse((await raw(viewer.port, { path: '/api/status' })).body);
    appendFileSync(
      path.join(dir, 'judgements.jsonl'),
      `${JSON.stringify(fakeApbLine({ split: 'holistic_planning', id: 'new', model: 'm1' }))}\n{"id": "half`,
    );
    // The poll only notices the change; loading the page re-reads.
    const noticed = JSON.parse((await raw(viewer.port, { path: '/api/status' })).body);
    expect(noticed).toMatchObject({ judgements: before.judgements });
    expect(noticed.version).not.toBe(before.version);
    // A reload re-reads once the throttle (twice the last read's duration) has passed.
    let page = '';
    for (let attempt = 0; attempt < 50 && !page.includes('is incomplete'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = (await raw(viewer.port)).body;
    }
    expect(page).toContain('is incomplete (a write in progress or cut short)');
    expect(page).toContain(`"version":"${noticed.version}"`);
    const after = JSON.parse((await raw(viewer.port, { path: '/api/status' })).body);
    expect(after).toEqual({ ...noticed, judgements: before.judgements + 1 });
  });
});

describe('apb view', () => {
  it('prints its URL, serves, and stops cleanly on SIGINT', async () => {
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'apb.js'), 'view', runDir()],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout);
        if (match) resolve(match[0]);
      });
      child.on('exit', () => reject(new Error(`viewer exited early: ${stderr}`)));
    });
    const response = await fetch(`${url}api/status`);
    expect(response.status).toBe(200);
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain('viewer stopped');
  });
});
