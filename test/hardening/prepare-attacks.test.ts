/**
 * Seen 10: a safe `apb data prepare`, against loopback fake hubs that misbehave: downloads are
 * checked against the listing (size, sha256) and a bad one leaves nothing behind; a body that
 * stalls is abandoned; pagination that loops or runs on is stopped; the token never goes to
 * another origin (a next-page link or a redirect); listing entries with `..` are refused; archive
 * members that are truncated, oversize, malformed or aimed at the split files are refused; a
 * listing that is HTML or not an array is a clear one-line error.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { holisticRecord } from '../helpers/dataset.js';
import { tar } from '../helpers/tar.js';
import { prepareDataset } from '../../src/dataset/prepare.js';

const REPO = 'Mikivis/AgentPlanningbBenchmark';
const TOKEN = 'hf_attack_token_0123456789';
const SPLIT = `${JSON.stringify(holisticRecord())}\n`;
const servers: Server[] = [];
afterEach(() =>
  Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))),
);

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

async function serve(handler: Handler, seen: IncomingMessage[] = []): Promise<string> {
  const server = createServer((request, response) => {
    seen.push(request);
    handler(request, response, new URL(request.url!, 'http://hub'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const listingPath = `/api/datasets/${REPO}/tree/main`;
const resolvePrefix = `/datasets/${REPO}/resolve/main/`;
const entry = (file: string, content: Buffer | string, extra: Record<string, unknown> = {}) => ({
  type: 'file',
  path: file,
  size: Buffer.byteLength(content),
  ...extra,
});

/** A hub serving `files` with `listing` entries (default: each file with its true size). */
function hub(
  files: Record<string, Buffer | string>,
  listing = Object.entries(files).map(([file, content]) => entry(file, content)),
): Handler {
  return (_request, response, url) => {
    if (url.pathname === listingPath)
      return void response
        .setHeader('content-type', 'application/json')
        .end(JSON.stringify(listing));
    const file = url.pathname.startsWith(resolvePrefix)
      ? decodeURIComponent(url.pathname.slice(resolvePrefix.length))
      : '';
    if (files[file] === undefined) return void response.writeHead(404).end();
    response.end(files[file]);
  };
}

const prepare = (
  endpoint: string,
  out: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) =>
  runCli(['data', 'prepare', '--out', out, ...extra], {
    env: { HF_ENDPOINT: endpoint, HF_TOKEN: TOKEN, ...env },
  });
const outDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'apb-prep-attack-')), 'apb');
const oneLineError = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('apb: '))
    .at(-1) ?? '';

describe('downloads are checked against the listing', () => {
  it('a split file shorter than the listed size: exit 1 naming it, no file and no .part left', async () => {
    const out = outDir();
    const endpoint = await serve(
      hub({ 'data/holistic_planning.jsonl': 'x'.repeat(100) }, [
        entry('data/holistic_planning.jsonl', 'x'.repeat(61_059)),
      ]),
    );
    const result = await prepare(endpoint, out);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)).toBe(
      'apb: downloading data/holistic_planning.jsonl: got 100 bytes, the listing says 61059; the partial file was removed (rerun to try again)',
    );
    expect(readdirSync(path.join(out, 'data'))).toEqual([]);
  });

  it('an LFS file whose sha256 differs from the listing is removed; a matching one is kept on the next run', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const wrong = createHash('sha256').update('something else').digest('hex');
    const out = outDir();
    const bad = await serve(
      hub({ 'data/holistic_planning.jsonl': SPLIT, 'metadata/chart.png': png }, [
        entry('data/holistic_planning.jsonl', SPLIT),
        entry('metadata/chart.png', png, { lfs: { oid: wrong, size: png.length } }),
      ]),
    );
    const result = await prepare(bad, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `downloading metadata/chart.png: its sha256 is ${createHash('sha256').update(png).digest('hex')}, the listing says ${wrong}`,
    );
    expect(readdirSync(path.join(out, 'metadata'))).toEqual([]);
    const good = await serve(
      hub({ 'data/holistic_planning.jsonl': SPLIT, 'metadata/chart.png': png }, [
        entry('data/holistic_planning.jsonl', SPLIT),
        entry('metadata/chart.png', png, {
          lfs: { oid: createHash('sha256').update(png).digest('hex'), size: png.length },
        }),
      ]),
    );
    expect((await prepare(good, out)).code).toBe(0);
    expect(readFileSync(path.join(out, 'metadata', 'chart.png'))).toEqual(png);
  });

  it('a body that stalls (one byte, then nothing) is abandoned with a clear error', async () => {
    const out = outDir();
    const endpoint = await serve((request, response, url) => {
      if (url.pathname === listingPath)
        return void response.end(JSON.stringify([entry('data/holistic_planning.jsonl', SPLIT)]));
      response.writeHead(200, { 'content-length': String(SPLIT.length) });
      response.write(SPLIT.slice(0, 1));
      request.on('close', () => response.destroy());
    });
    const result = await prepare(endpoint, out, ['--stall-timeout-ms', '500']);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)).toBe(
      'apb: downloading data/holistic_planning.jsonl: the download stalled (nothing for 0.5 s)',
    );
    expect(existsSync(path.join(out, 'data', 'holistic_planning.jsonl'))).toBe(false);
  });
});

describe('the listing', () => {
  it('a next-page link pointing at itself is a loop, stopped', async () => {
    const endpoint = await serve((_request, response, url) => {
      if (url.pathname !== listingPath) return void response.writeHead(404).end();
      response.setHeader('link', `<${listingPath}?recursive=true>; rel="next"`);
      response.end(JSON.stringify([entry('data/holistic_planning.jsonl', SPLIT)]));
    });
    const result = await prepare(endpoint, outDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the listing's pages loop");
  });

  it('the token goes to the HF_ENDPOINT origin only: not to a next page elsewhere, not through a redirect', async () => {
    const elsewhere: IncomingMessage[] = [];
    const other = await serve((_request, response, url) => {
      if (url.pathname === '/page2')
        return void response.end(JSON.stringify([entry('data/holistic_planning.jsonl', SPLIT)]));
      response.end(SPLIT);
    }, elsewhere);
    const home: IncomingMessage[] = [];
    const endpoint = await serve((_request, response, url) => {
      if (url.pathname === listingPath)
        return void response.setHeader('link', `<${other}/page2>; rel="next"`).end('[]');
      response.writeHead(302, { location: `${other}/cdn/holistic_planning.jsonl` }).end();
    }, home);
    const out = outDir();
    const result = await prepare(endpoint, out);
    expect(result.code, result.stderr).toBe(0);
    expect(home.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(elsewhere.map((request) => request.url)).toEqual([
      '/page2',
      '/cdn/holistic_planning.jsonl',
    ]);
    expect(elsewhere.map((request) => request.headers.authorization)).toEqual([
      undefined,
      undefined,
    ]);
    expect(readFileSync(path.join(out, 'data', 'holistic_planning.jsonl'), 'utf8')).toBe(SPLIT);
  });

  it('an entry "metadata/.." is refused before anything is written outside --out', async () => {
    const out = outDir();
    const endpoint = await serve(
      hub({ 'data/holistic_planning.jsonl': SPLIT, 'metadata/..': 'evil' }),
    );
    const result = await prepare(endpoint, out);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)).toBe(
      `apb: the listing of ${REPO}@main names "metadata/..", which is not a plain path inside the dataset; refused`,
    );
    expect(existsSync(path.dirname(out)) && readdirSync(path.dirname(out))).toEqual([]);
  });

  it.each([
    [
      'an HTML page',
      'text/html',
      '<html><body>Sign in</body></html>',
      /is not the hub's JSON list of files \(got text\/html: "<html><body>Sign in/,
    ],
    [
      'a JSON object',
      'application/json',
      '{"error": "maintenance"}',
      /is not a JSON array of files \(got object\)/,
    ],
  ])(
    'a listing that is %s: one line, exit 1, no internal error',
    async (_kind, type, body, message) => {
      const endpoint = await serve((_request, response) =>
        response.setHeader('content-type', type).end(body),
      );
      const result = await prepare(endpoint, outDir());
      expect(result.code).toBe(1);
      expect(oneLineError(result.stderr)).toMatch(message);
      expect(result.stderr).not.toContain('internal error');
    },
  );
});

describe('archives', () => {
  const withArchive = (archive: Buffer) =>
    hub({ 'data/holistic_planning.jsonl': SPLIT, 'assets_archives/Holistic_assets.tar': archive });

  it('a 2-byte "tar" is not an archive: exit 1, not "extracted 0 file(s)"', async () => {
    const result = await prepare(await serve(withArchive(Buffer.from('hi'))), outDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Holistic_assets\.tar: not a tar archive \(2 bytes\) \(at byte 0\)/,
    );
    expect(result.stderr).not.toContain('extracted 0 file(s)');
  });

  it('a member that overwrites a split file is not extracted; the split stays as downloaded', async () => {
    const out = outDir();
    const archive = tar([
      { name: 'data/holistic_planning.jsonl', content: '{"id": "planted"}\n' },
      { name: 'assets/ok.txt', content: 'fine' },
    ]);
    const result = await prepare(await serve(withArchive(archive)), out);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "data/holistic_planning.jsonl: would replace the dataset's own data/ files",
    );
    expect(readFileSync(path.join(out, 'data', 'holistic_planning.jsonl'), 'utf8')).toBe(SPLIT);
    expect(readFileSync(path.join(out, 'assets', 'ok.txt'), 'utf8')).toBe('fine');
  });

  it('a truncated member, an oversize member and a malformed header are errors naming the archive', async () => {
    const whole = tar([{ name: 'assets/big.bin', content: 'z'.repeat(5000) }]);
    const truncated = await prepare(await serve(withArchive(whole.subarray(0, 2048))), outDir());
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(
      /member "assets\/big\.bin" is truncated: 5000 bytes announced, 1536 left/,
    );
    const oversize = await prepare(await serve(withArchive(whole)), outDir(), [], {
      APB_MAX_IMAGE_BYTES: '1000',
      APB_MAX_FILE_BYTES: '1000',
    });
    expect(oversize.code).toBe(1);
    expect(oversize.stderr).toMatch(
      /member "assets\/big\.bin" is 4\.9 KiB, over the 1000 bytes cap/,
    );
    const malformed = Buffer.from(whole);
    malformed.write('9x', 124);
    const bad = await prepare(await serve(withArchive(malformed)), outDir());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/malformed tar header|no valid tar header/);
    expect(bad.stderr + truncated.stderr + oversize.stderr).not.toContain('internal error');
  });
});

describe('unbounded downloads (issue 24)', () => {
  /** A hub whose split file drips one byte every 100 ms, as a throttled or hostile mirror would. */
  const trickle = (seen: IncomingMessage[] = []) =>
    serve((request, response, url) => {
      if (url.pathname === listingPath)
        return void response.end(JSON.stringify([entry('data/holistic_planning.jsonl', SPLIT)]));
      response.writeHead(200, { 'content-length': String(SPLIT.length) });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < SPLIT.length) response.write(SPLIT.slice(sent, ++sent));
      }, 100);
      request.on('close', () => clearInterval(timer));
      response.on('close', () => clearInterval(timer));
    }, seen);

  it('a listing without sizes is refused before any download, unless --allow-unverified', async () => {
    const seen: IncomingMessage[] = [];
    const sizeless = [{ type: 'file', path: 'data/holistic_planning.jsonl' }];
    const endpoint = await serve(hub({ 'data/holistic_planning.jsonl': SPLIT }, sizeless), seen);
    const out = outDir();
    const refused = await prepare(endpoint, out);
    expect(refused.code).toBe(1);
    expect(oneLineError(refused.stderr)).toBe(
      `apb: the listing of ${REPO}@main gives no size for data/holistic_planning.jsonl, so its ` +
        'download could not be checked; refused (--allow-unverified to download it anyway)',
    );
    expect(seen.some((request) => request.url!.startsWith(resolvePrefix))).toBe(false);
    expect(existsSync(path.join(out, 'data', 'holistic_planning.jsonl'))).toBe(false);
    const allowed = await prepare(endpoint, out, ['--allow-unverified']);
    expect(allowed.code).toBe(0);
    expect(readFileSync(path.join(out, 'data', 'holistic_planning.jsonl'), 'utf8')).toBe(SPLIT);
  });

  it('a body dripping a byte at a time is stopped at the overall deadline, nothing kept', async () => {
    const out = outDir();
    const started = Date.now();
    const result = await prepare(await trickle(), out, ['--deadline-ms', '1500']);
    expect(result.code).toBe(1);
    expect(oneLineError(result.stderr)).toBe(
      'apb: downloading data/holistic_planning.jsonl: past the overall deadline (--deadline-ms); stopped',
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(readdirSync(path.join(out, 'data'))).toEqual([]);
  });

  it('a body slower than the minimum rate is abandoned with the rate it had', async () => {
    const out = outDir();
    const endpoint = await trickle();
    const run = prepareDataset({
      out,
      repo: REPO,
      revision: 'main',
      endpoint,
      minBytesPerSecond: 1000,
      rateWindowMs: 500,
    });
    const slow = new RegExp(
      String.raw`^downloading data/holistic_planning\.jsonl: too slow \([\d.]+ bytes/s ` +
        String.raw`over [\d.]+ s, the minimum is 1000; --min-rate to change it\)$`,
    );
    await expect(run).rejects.toThrow(slow);
    expect(readdirSync(path.join(out, 'data'))).toEqual([]);
  });
});
