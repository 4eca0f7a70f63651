/**
 * The one way browser tests start Chromium (through playwright-core, never a bundled browser).
 * `APB_CHROMIUM` names the executable (default Debian's `/usr/bin/chromium`). Without one at the
 * default path the browser tests are skipped, saying why; a path given in `APB_CHROMIUM` that
 * does not exist fails them instead, so a misconfigured CI never passes by skipping.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The executable the browser tests use. */
export const CHROMIUM_PATH = process.env.APB_CHROMIUM?.trim() || DEFAULT_CHROMIUM;

/** The contract's arguments: headless, no sandbox (containers), no GPU, no background requests. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the browser tests cannot run here, or null when they can. Only the default path may be
 * missing quietly; an explicit `APB_CHROMIUM` that is not executable is an error, not a skip.
 */
export function chromiumSkipReason(): string | null {
  if (executable(CHROMIUM_PATH)) return null;
  if (process.env.APB_CHROMIUM?.trim())
    throw new Error(`APB_CHROMIUM=${CHROMIUM_PATH} is not an executable file`);
  return `no Chromium at ${DEFAULT_CHROMIUM} (install Debian's chromium, or set APB_CHROMIUM=/path/to/chromium); browser tests skipped`;
}

/** True when the browser tests must be skipped; says why once on stderr. */
export function skipBrowserTests(): boolean {
  const reason = chromiumSkipReason();
  if (reason) process.stderr.write(`${reason}\n`);
  return reason !== null;
}

/** A persistent browser context in a fresh profile directory; `close` removes the profile too. */
export async function launchChromium(): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(tmpdir(), 'apb-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  context.on('close', () => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Chromium may still be flushing its profile; a leftover temp directory is harmless.
    }
  });
  return context;
}
