/**
 * Seen 12: key masking covers encoded forms. A 401 body that echoes the key base64-encoded (alone
 * or as `user:key`) or URL-encoded is masked in the terminal and in every run file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, filesUnder, SECRET_KEY, tempDir, useScriptedServer } from '../engine/helpers.js';

const fake = useScriptedServer();

describe('key masking of encoded forms', () => {
  // A key with characters that URL encoding changes, as some gateways' keys have.
  const SPECIAL_KEY = 'sk-gw+Key/With=Special0123456789';
  it.each([
    ['base64', SECRET_KEY, Buffer.from(SECRET_KEY).toString('base64')],
    ['base64 of user:key', SECRET_KEY, Buffer.from(`apb-user:${SECRET_KEY}`).toString('base64')],
    ['URL-safe base64', SECRET_KEY, Buffer.from(`x${SECRET_KEY}`).toString('base64url')],
    ['URL-encoded', SPECIAL_KEY, encodeURIComponent(SPECIAL_KEY)],
  ])(
    'a 401 echoing the key as %s: masked in the terminal and in the run directory',
    async (_form, key, echoed) => {
      fake.server.configure({
        respond: () => ({ status: 401, message: `invalid credentials: ${echoed}` }),
      });
      const out = path.join(tempDir(), 'run');
      const result = await cli(
        [
          'run',
          '--model',
          'openai:gpt-4o',
          '--base-url',
          fake.server.baseUrl('openai'),
          '--out',
          out,
          '--concurrency',
          '1',
          '--no-cache',
        ],
        { OPENAI_API_KEY: key },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('invalid credentials: ');
      // The part of the encoding that depends on the key alone must be gone.
      const telltale = echoed.slice(8, 28);
      expect(result.stderr + result.stdout).not.toContain(telltale);
      for (const file of filesUnder(out))
        expect(readFileSync(file, 'utf8').includes(telltale), file).toBe(false);
    },
    60_000,
  );
});
