/**
 * `apb data prepare` against a loopback fake of the Hugging Face hub: listing, pagination, token,
 * archives, hostile members.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { holisticRecord } from '../helpers/dataset.js';
import { tar } from '../helpers/tar.js';

const REPO = 'Mikivis/AgentPlanningbBenchmark';
let server: Server | null = null;
afterEach(() => server?.close());

function startHub(
  files: Record<string, Buffer | string>,
  seen: IncomingMessage[],
): Promise<string> {
  const paths = Object.keys(files);
  server = createServer((request, response) => {
    seen.push(request);
    const url = new URL(request.url!, 'http://hub');
    if (request.headers.authorization !== 'Bearer hf_secret_token_123')
      return void response.writeHead(401).end('{"error":"unauthorized"}');
    if (url.pathname === `/api/datasets/${REPO}/tree/main`) {
      // Two pages, to exercise the Link header.
      const page = url.searchParams.get('cursor') === '2' ? paths.slice(2) : paths.slice(0, 2);
      if (!url.searchParams.get('cursor'))
        response.setHeader(
          'link',
          `</api/datasets/${REPO}/tree/main?recursive=true&cursor=2>; rel="next"`,
        );
      response.setHeader('content-type', 'application/json');
      return void response.end(
        JSON.stringify([
          { type: 'directory', path: 'data' },
          ...page.map((file) => ({
            type: 'file',
            path: file,
            size: Buffer.byteLength(files[file]!),
          })),
        ]),
      );
    }
    const prefix = `/datasets/${REPO}/resolve/main/`;
    const file = url.pathname.startsWith(prefix)
      ? decodeURIComponent(url.pathname.slice(prefix.length))
      : '';
    if (files[file] === undefined) return void response.writeHead(404).end();
    response.end(files[file]);
  });
  return new Promise((resolve) =>
    server!.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server!.address() as { port: number }).port}`),
    ),
  );
}

describe('apb data prepare', () => {
  it('downloads the layout, extracts the assets, refuses hostile archive members, and leaks no token', async () => {
    const record = holisticRecord({
      files: [{ path: 'assets/Holistic/chart.png', type: 'image' }],
    });
    const files = {
      'data/holistic_planning.jsonl': `${JSON.stringify(record)}\n`,
      'data/sources/holistic_planning/gta.jsonl': 'not wanted',
      'metadata/summary.json': '{"total": 1}',
      'assets_archives/Holistic_assets.tar': tar([
        { name: 'assets/Holistic/', type: '5' },
        { name: 'assets/Holistic/chart.png', content: 'PNG bytes' },
        { name: '../escape.txt', content: 'evil' },
        { name: 'assets/Holistic/link', type: '2', link: '/etc/passwd' },
      ]),
    };
    const seen: IncomingMessage[] = [];
    const endpoint = await startHub(files, seen);
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-prep-')), 'apb');
    const result = await runCli(['data', 'prepare', '--out', out], {
      env: { HF_ENDPOINT: endpoint, HF_TOKEN: 'hf_secret_token_123' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'assets/Holistic/chart.png'), 'utf8')).toBe('PNG bytes');
    expect(existsSync(path.join(out, 'data/sources'))).toBe(false);
    expect(existsSync(path.join(out, '..', 'escape.txt'))).toBe(false);
    expect(existsSync(path.join(out, 'assets/Holistic/link'))).toBe(false);
    expect(result.stderr).toContain(
      'not extracted: assets_archives/Holistic_assets.tar: ../escape.txt: path escapes the target folder',
    );
    expect(result.stderr).not.toContain('hf_secret_token_123');
    const validate = await runCli(['data', 'validate', out]);
    expect(validate.code, validate.stdout).toBe(0);
    const again = await runCli(['data', 'prepare', '--out', out], {
      env: { HF_ENDPOINT: endpoint, HF_TOKEN: 'hf_secret_token_123' },
    });
    expect(again.stderr).toContain('0 file(s) downloaded, 3 already present');
  });

  it('explains an access failure and exits non-zero without a stack', async () => {
    const endpoint = await startHub({ 'data/holistic_planning.jsonl': '' }, []);
    const result = await runCli(
      ['data', 'prepare', '--out', mkdtempSync(path.join(tmpdir(), 'apb-prep-'))],
      { env: { HF_ENDPOINT: endpoint, HF_TOKEN: '' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('set HF_TOKEN');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
