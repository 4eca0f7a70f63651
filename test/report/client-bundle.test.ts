/**
 * The page script is TypeScript under src/report/viewer/client/, bundled by
 * scripts/build-client.mjs into the committed src/report/viewer/client-bundle.ts: the committed
 * bundle must be what the sources build to, its CSP hash must be the hash of its text, and the
 * sources never write markup (innerHTML and friends).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { BUNDLE_MODULE, bundleClient, bundleModule } from '../../scripts/build-client.mjs';
import { CLIENT_SCRIPT, CLIENT_SCRIPT_SHA256 } from '../../src/report/viewer/client-bundle.js';
import { REPO_ROOT } from '../helpers/cli.js';

describe('the bundled page script', () => {
  it('is what the client sources build to (run npm run build:client when this fails)', async () => {
    const code: string = await bundleClient();
    expect(code).toBe(CLIENT_SCRIPT);
    expect(readFileSync(BUNDLE_MODULE, 'utf8')).toBe(bundleModule(code));
  }, 60_000);

  it('carries the SHA-256 of its own text for the CSP', () => {
    const hash = createHash('sha256').update(CLIENT_SCRIPT, 'utf8').digest('base64');
    expect(CLIENT_SCRIPT_SHA256).toBe(hash);
  });

  it('is one wrapped function that writes no markup', () => {
    expect(CLIENT_SCRIPT.trimStart().startsWith('"use strict";\n(() => {')).toBe(true);
    const dir = path.join(REPO_ROOT, 'src/report/viewer/client');
    const sources = readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
    expect(sources.length).toBeGreaterThan(5);
    for (const text of sources)
      expect(text).not.toMatch(/\.(innerHTML|outerHTML|insertAdjacentHTML)\b|document\.write\(/);
  });
});
