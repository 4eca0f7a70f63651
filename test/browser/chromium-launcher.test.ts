/**
 * Seen 12: the browser tests find Chromium through `APB_CHROMIUM` (default /usr/bin/chromium),
 * skip with a reason when the default is absent, and fail when an explicit path is wrong.
 */
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const original = process.env.APB_CHROMIUM;
afterEach(() => {
  if (original === undefined) delete process.env.APB_CHROMIUM;
  else process.env.APB_CHROMIUM = original;
  vi.resetModules();
});

async function load(value: string | undefined) {
  if (value === undefined) delete process.env.APB_CHROMIUM;
  else process.env.APB_CHROMIUM = value;
  vi.resetModules();
  return import('../helpers/chromium.js');
}

describe('Chromium launcher for browser tests', () => {
  it('an explicit APB_CHROMIUM that does not exist fails instead of skipping', async () => {
    const helper = await load('/nonexistent/chromium');
    expect(helper.CHROMIUM_PATH).toBe('/nonexistent/chromium');
    expect(() => helper.chromiumSkipReason()).toThrow(
      'APB_CHROMIUM=/nonexistent/chromium is not an executable file',
    );
  });

  it('uses the Chromium APB_CHROMIUM points at', async () => {
    const real = await load(undefined);
    if (real.chromiumSkipReason() !== null) return; // no Chromium on this machine: nothing to point at
    const link = path.join(mkdtempSync(path.join(tmpdir(), 'apb-chromium-link-')), 'my-chromium');
    symlinkSync(real.CHROMIUM_PATH, link);
    const helper = await load(link);
    expect(helper.CHROMIUM_PATH).toBe(link);
    expect(helper.chromiumSkipReason()).toBeNull();
    const context = await helper.launchChromium();
    try {
      expect(context.browser()?.version() ?? (await context.newPage()).url()).toBeTruthy();
    } finally {
      await context.close();
    }
  }, 60_000);
});
