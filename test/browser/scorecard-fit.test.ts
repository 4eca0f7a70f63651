/**
 * Issue 26 item 2 in Chromium at 1,366 px: the scorecard's five headline numbers are all visible
 * without scrolling, in a single run's report, a leaderboard and an interrupted run's report; the
 * interrupted run's banner is on screen at load; the leaderboard's scorecard sorts by a header and
 * carries the headline chart. Screenshots go to APB_SCREENSHOT_DIR when it is set (docs/images/).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../engine/helpers.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';

const skip = skipBrowserTests();
const MODELS = ['baseline:oracle', 'baseline:heuristic', 'baseline:refuse'];
const SHOTS = process.env.APB_SCREENSHOT_DIR;
let board: string;
let cut: string;
let context: BrowserContext;

/** The heuristic run as if stopped early: its manifest says interrupted, 23 of its lines kept. */
function interrupted(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(from, 'manifest.json'), 'utf8'));
  writeFileSync(
    path.join(to, 'manifest.json'),
    JSON.stringify({ ...manifest, status: 'interrupted' }),
  );
  const lines = readFileSync(path.join(from, 'judgements.jsonl'), 'utf8').split('\n').slice(0, 23);
  writeFileSync(path.join(to, 'judgements.jsonl'), `${lines.join('\n')}\n`);
  copyFileSync(path.join(from, 'predictions.jsonl'), path.join(to, 'predictions.jsonl'));
}

beforeAll(async () => {
  if (skip) return;
  board = path.join(tempDir('apb-fit-'), 'board');
  const run = await cli([
    'run',
    ...MODELS.flatMap((m) => ['--model', m]),
    '--out',
    board,
    '--quiet',
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  cut = path.join(path.dirname(board), 'cut');
  interrupted(path.join(board, 'baseline-heuristic'), cut);
  const report = await cli([
    'report',
    cut,
    '--format',
    'html',
    '--out',
    path.join(cut, 'report.html'),
  ]);
  if (report.code !== 0) throw new Error(report.stderr);
  context = await launchChromium();
}, 240_000);
afterAll(async () => context?.close());

async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1366, height: 768 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, errors };
}

/** Headline numbers of the scorecard that lie outside the window or outside their scroller's box. */
const hiddenHeadlines = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const box = document.querySelector('#scorecard .scroll')!.getBoundingClientRect();
    const numbers = [...document.querySelectorAll('table.scorecard td.headline')];
    return {
      count: numbers.length,
      hidden: numbers
        .map((cell) => cell.getBoundingClientRect())
        .filter(
          (rect) => rect.right > Math.min(width, box.right) + 0.5 || rect.left < box.left - 0.5,
        ).length,
    };
  });

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name) });
}

describe.skipIf(skip)('the scorecard at 1,366 px', () => {
  it('shows all five headline numbers of a single run', async () => {
    const { page, errors } = await open(path.join(board, 'baseline-oracle', 'report.html'));
    expect(await hiddenHeadlines(page)).toEqual({ count: 5, hidden: 0 });
    expect(await page.locator('.banner').count()).toBe(0);
    await shoot(page, 'report-single-run.png');
    expect(errors).toEqual([]);
  });

  it('shows every headline of a ranked leaderboard, sorts by a header and draws the chart', async () => {
    const { page, errors } = await open(path.join(board, 'leaderboard.html'));
    expect(await hiddenHeadlines(page)).toEqual({ count: 15, hidden: 0 });
    const ranks = () => page.locator('table.scorecard tbody tr td:first-child').allTextContents();
    expect(await ranks()).toEqual(['1', '2', '2']);
    expect(await page.locator('svg#headline-chart rect').count()).toBe(3);
    // Sort by "Unsolvable pass": oracle and refuse (100 %) before the heuristic.
    await page.locator('table.scorecard th button', { hasText: 'Unsolvable pass' }).click();
    const models = () => page.locator('table.scorecard tbody tr td:nth-child(2)').allTextContents();
    expect((await models()).at(-1)).toContain('baseline:heuristic');
    await page.locator('table.scorecard th button', { hasText: 'Unsolvable pass' }).click();
    expect((await models())[0]).toContain('baseline:heuristic');
    await page.locator('table.scorecard th button', { hasText: 'Unsolvable pass' }).click();
    expect(await ranks()).toEqual(['1', '2', '2']);
    await shoot(page, 'report-scorecard.png');
    expect(errors).toEqual([]);
  });

  it('puts the banner of an interrupted run on screen at load, with the cases it holds', async () => {
    const { page, errors } = await open(path.join(cut, 'report.html'));
    const banner = page.locator('.banner');
    expect(await banner.count()).toBe(1);
    expect(await banner.textContent()).toMatch(/was interrupted\. It holds \d+ of 69 case\(s\)/);
    const rect = await banner.boundingBox();
    expect(rect!.y + rect!.height).toBeLessThan(768);
    expect(await hiddenHeadlines(page)).toMatchObject({ hidden: 0 });
    await shoot(page, 'report-interrupted.png');
    expect(errors).toEqual([]);
  });
});
