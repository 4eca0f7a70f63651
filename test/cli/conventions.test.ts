/**
 * The conventions users bring: the vendors' base-URL variables (`OPENAI_BASE_URL`, …) route a
 * provider's calls to a proxy or gateway, named in the manifest and the output; a `.env` in the
 * working directory fills variables that are not set and never overrides one that is.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDotenv } from '../../src/cli/dotenv.js';
import { vendorBaseUrl } from '../../src/providers/vendor-access.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { cli, readManifest, sampleScript, SECRET_KEY, tempDir } from '../engine/helpers.js';
import { runCli } from '../helpers/cli.js';

let server: FakeServer;

beforeAll(async () => {
  const script = await sampleScript();
  server = await startFakeServer({ respond: (request) => script.respond(request) });
});
afterAll(() => server?.close());

describe('vendor base-URL variables', () => {
  it('sends openai:* calls to OPENAI_BASE_URL and names it in the manifest and the output', async () => {
    const out = path.join(tempDir('apb-conventions-'), 'run');
    const before = server.count();
    const result = await cli(
      [
        'run',
        '--model',
        'openai:gpt-4o',
        '--splits',
        'holistic_planning',
        '--limit',
        '2',
        '--no-cache',
        '--out',
        out,
      ],
      { OPENAI_API_KEY: SECRET_KEY, OPENAI_BASE_URL: server.baseUrl('openai') },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.count() - before, result.stderr + JSON.stringify(server.countsByPath())).toBe(2);
    expect(result.stderr).toContain(`(from OPENAI_BASE_URL)`);
    expect(readManifest(out).identity.base_url).toBe(server.baseUrl('openai'));
  });

  it('leaves the loopback endpoint untouched when the variable is not set', async () => {
    const out = path.join(tempDir('apb-conventions-'), 'run');
    const before = server.count();
    // A baseline needs no endpoint: with no OPENAI_BASE_URL nothing reaches the fake.
    const result = await cli(
      ['run', '--splits', 'holistic_planning', '--limit', '2', '--out', out],
      {
        OPENAI_BASE_URL: '',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.count()).toBe(before);
    expect(result.stderr).not.toContain('OPENAI_BASE_URL');
  });

  it('reads each vendor its own variable, in order, and none for baselines or the rules judge', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://a/v1', GOOGLE_GEMINI_BASE_URL: 'http://g/v1' };
    expect(vendorBaseUrl('anthropic:claude-sonnet-4-5', env)).toEqual({
      url: 'http://a/v1',
      variable: 'ANTHROPIC_BASE_URL',
    });
    expect(vendorBaseUrl('google:gemini-2.5-flash', env)?.variable).toBe('GOOGLE_GEMINI_BASE_URL');
    expect(vendorBaseUrl('openai:gpt-4o', env)).toBeNull();
    expect(vendorBaseUrl('baseline:oracle', env)).toBeNull();
    expect(vendorBaseUrl('rules', env)).toBeNull();
  });
});

describe('.env', () => {
  it('fills unset variables and never overrides a set one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-dotenv-'));
    writeFileSync(
      path.join(dir, '.env'),
      '# keys\nOPENAI_API_KEY=sk-from-dotenv\nexport APB_MODEL="openai:gpt-4o"\nAPB_BASE_URL=http://x/v1\n',
    );
    const env: NodeJS.ProcessEnv = { APB_BASE_URL: 'http://already-set/v1' };
    const set = loadDotenv(dir, env);
    expect(env.OPENAI_API_KEY).toBe('sk-from-dotenv');
    expect(env.APB_BASE_URL).toBe('http://already-set/v1');
    expect(set).toContain('OPENAI_API_KEY');
    expect(set).not.toContain('APB_BASE_URL');
  });

  it('is optional, and a .env that is a directory is a one-line error naming it', () => {
    expect(loadDotenv(mkdtempSync(path.join(tmpdir(), 'apb-dotenv-')), {})).toEqual([]);
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-dotenv-'));
    mkdirSync(path.join(dir, '.env'));
    expect(() => loadDotenv(dir, {})).toThrow(/\.env:0: \.env: not a file/);
  });

  it('a key in .env is used by a run started in that directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-dotenv-run-'));
    writeFileSync(
      path.join(dir, '.env'),
      `OPENAI_API_KEY=${SECRET_KEY}\nOPENAI_BASE_URL=${server.baseUrl('openai')}\n`,
    );
    const out = path.join(dir, 'run');
    const before = server.count();
    const result = await runCli(
      [
        'run',
        '--model',
        'openai:gpt-4o',
        '--splits',
        'holistic_planning',
        '--limit',
        '1',
        '--no-cache',
        '--out',
        out,
      ],
      { cwd: dir, env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.count() - before).toBe(1);
    expect(result.stderr).not.toContain(SECRET_KEY);
  });
});
