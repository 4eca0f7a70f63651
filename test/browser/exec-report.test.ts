/**
 * An exec run's report in Chromium at 1,366 px: Table 3's cells all inside the window, the case browser's
 * filters (mode, outcome, plan verdict) hiding the executions outside the chosen values with a true count, and
 * the database difference's JSON wrapped inside the page (never cut at the right). The run is real: `apb exec`
 * against a scripted model over loopback HTTP. Screenshots go to APB_SCREENSHOT_DIR when it is set.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { runCli } from '../helpers/cli.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';
import { respondAsExecModels } from '../execution/scripted-model.js';
import { costOfCall } from '../../src/pipeline/budget.js';
import { writeExecOutputs } from '../../src/report/write-exec-reports.js';

const skip = skipBrowserTests();
const SHOTS = process.env.APB_SCREENSHOT_DIR;
let fake: FakeServer;
let out: string;
let context: BrowserContext;

beforeAll(async () => {
  if (skip) return;
  fake = await startFakeServer({ respond: respondAsExecModels });
  out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-exec-shot-')), 'exec');
  const run = await runCli(
    [
      'exec',
      '--env',
      'tau2:retail',
      '--tasks',
      '0,1',
      '--mode',
      'direct,plan-first',
      '--model',
      'openai-compatible:fake-agent',
      '--base-url',
      fake.baseUrl('openai'),
      '--out',
      out,
      '--max-retries',
      '0',
      '--quiet',
    ],
    { env: { APB_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'apb-exec-shot-cache-')) } },
  );
  if (run.code !== 0) throw new Error(run.stderr);
  context = await launchChromium();
}, 180_000);
afterAll(async () => {
  await context?.close();
  await fake?.close();
});

async function open(dir = out): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1366, height: 768 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(pathToFileURL(path.join(dir, 'report.html')).href);
  return { page, errors };
}

/** Elements matching `selector` whose box reaches past the window's right edge. */
const pastRightEdge = (page: Page, selector: string) =>
  page.evaluate((query) => {
    const width = document.documentElement.clientWidth;
    const boxes = [...document.querySelectorAll(query)].map((node) => node.getBoundingClientRect());
    return {
      count: boxes.length,
      cut: boxes.filter((box) => box.width > 0 && box.right > width + 0.5).length,
    };
  }, selector);

describe.skipIf(skip)('the exec report at 1,366 px', () => {
  it('shows every Table 3 cell and filters the executions', async () => {
    const { page, errors } = await open();
    const table3 = await pastRightEdge(page, 'main > div.scroll:first-of-type td');
    expect(table3.count).toBeGreaterThanOrEqual(9);
    expect(table3.cut).toBe(0);
    const cases = page.locator('details.case');
    expect(await cases.count()).toBe(4);
    await page.selectOption('select[data-filter="mode"]', 'direct');
    expect(await page.locator('details.case:not([hidden])').count()).toBe(2);
    expect(await page.locator('#exec-shown').textContent()).toBe('2 of 4 shown');
    await page.selectOption('select[data-filter="verdict"]', 'no plan');
    expect(await page.locator('details.case:not([hidden])').count()).toBe(2);
    await page.selectOption('select[data-filter="mode"]', 'plan-first');
    expect(await page.locator('#exec-shown').textContent()).toBe('0 of 4 shown');
    await page.selectOption('select[data-filter="verdict"]', '');
    await page.selectOption('select[data-filter="mode"]', '');
    expect(await page.locator('#exec-shown').textContent()).toBe('4 of 4 shown');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'exec-report.png') });
    }
    expect(errors).toEqual([]);
  });

  it('wraps the database difference inside the page', async () => {
    const { page, errors } = await open();
    // The direct mode cancels an order that does not exist: its final database differs from the expected one.
    const withDiff = page.locator('details.case', { has: page.locator('table.db-diff') });
    expect(await withDiff.count()).toBeGreaterThan(0);
    await withDiff.first().evaluate((node) => ((node as HTMLDetailsElement).open = true));
    const diff = await pastRightEdge(page, 'table.db-diff pre');
    expect(diff.count).toBeGreaterThan(0);
    expect(diff.cut).toBe(0);
    const overflowing = await page.evaluate(
      () =>
        [...document.querySelectorAll('table.db-diff pre')].filter(
          (node) => node.scrollWidth > node.clientWidth + 1,
        ).length,
    );
    expect(overflowing).toBe(0);
    expect(errors).toEqual([]);
  });

  it('puts the banner of an interrupted exec run on screen at load, with the executions it holds', async () => {
    const cut = `${out}-cut`;
    cpSync(out, cut, { recursive: true });
    const file = path.join(cut, 'exec-manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({
        ...manifest,
        status: 'interrupted',
        executions: { ...manifest.executions, total: 6 },
      }),
    );
    await writeExecOutputs(cut, costOfCall);
    const { page, errors } = await open(cut);
    const banner = page.locator('.banner');
    expect(await banner.textContent()).toMatch(/was interrupted\. It holds 4 of 6 execution\(s\)/);
    const box = await banner.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(768);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1366);
    expect(readFileSync(path.join(cut, 'report.md'), 'utf8')).toMatch(/^> \*\*Unfinished exec run/);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'exec-interrupted.png') });
    expect(errors).toEqual([]);
  });
});
