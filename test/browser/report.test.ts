/**
 * The HTML report and the viewer in a real browser (Debian's chromium through playwright-core):
 * opens with no console error and no network request, filters work, hostile text shows as text and
 * runs no script, two answers side by side, and the viewer serves the same interface.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { startViewer } from '../../src/report/viewer/server.js';
import {
  fakeApbLine,
  fakeReport,
  jsonl,
  type LineSpec,
} from '../../src/report/fake-lines.fixture.js';
import { fakeLeaderboard } from '../../src/report/fake-leaderboard.fixture.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';

/** Sets a flag if any of it ever runs as markup or script. */
const PAYLOAD =
  '</script><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b onmouseover="window.__pwned=1">x</b>';

const specs: LineSpec[] = [
  ...fakeLeaderboard(),
  {
    split: 'holistic_planning',
    id: 'hostile',
    model: 'openai:gpt-4o',
    response: `answer ${PAYLOAD}`,
    reasoning: `reasoning ${PAYLOAD}`,
    query: `query ${PAYLOAD}`,
    correct: false,
  },
  {
    split: 'holistic_planning',
    id: 'hostile',
    model: 'anthropic:claude-sonnet-4-5',
    response: 'a calm answer',
    correct: true,
  },
];

const skip = skipBrowserTests();
let work: string;
let context: BrowserContext;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'apb-browser-'));
  writeFileSync(
    path.join(work, 'report.html'),
    renderHtml(fakeReport([{ dir: 'runs/browser', specs }])),
  );
  if (skip) return;
  context = await launchChromium();
}, 60_000);

afterAll(async () => {
  await context?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Opens a page recording console errors and every request. */
async function open(url: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on(
    'console',
    (message) =>
      (message.type() === 'error' || message.type() === 'warning') && errors.push(message.text()),
  );
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, errors, requests };
}

const countText = (page: Page) => page.textContent('#case-count');

describe.skipIf(skip)('HTML report in chromium', () => {
  it('opens with no console error and requests nothing but the file itself', async () => {
    const url = pathToFileURL(path.join(work, 'report.html')).href;
    const { page, errors, requests } = await open(url);
    expect(await countText(page)).toMatch(/^146 of 146 judgements/);
    await page.click('#case-list button');
    await page.waitForSelector('.answer-column');
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });

  it('filters by split, model, outcome, error, behaviour, distractor level and search', async () => {
    const { page } = await open(pathToFileURL(path.join(work, 'report.html')).href);
    const pick = async (id: string, label: string) => {
      await page.selectOption(`#filter-${id}`, { label });
      return countText(page);
    };
    expect(await pick('split', 'step_wise_tool_broken')).toMatch(/^24 of 146/);
    expect(await pick('behavior', 'retry')).toMatch(/^4 of 146/);
    expect(await pick('model', 'openai:gpt-4o')).toMatch(/^2 of 146/);
    await page.selectOption('#filter-behavior', '');
    await page.selectOption('#filter-split', '');
    // still openai:gpt-4o only: 2 holistic + 2 step-wise cases at level 10
    expect(await pick('level', '10 distractors')).toMatch(/^4 of 146/);
    await page.selectOption('#filter-level', '');
    expect(await pick('outcome', 'correct')).toMatch(/^\d+ of 146 judgements · 100\.0 % correct/);
    expect(await pick('error', 'E5')).toMatch(/^0 of 146/);
    await page.selectOption('#filter-outcome', '');
    expect(await pick('error', 'E5')).toMatch(/^\d+ of 146/);
    await page.selectOption('#filter-error', '');
    await page.fill('#filter-search', 'hostile');
    await page.waitForFunction(() =>
      document.querySelector('#case-count')?.textContent?.startsWith('1 of'),
    );
    // Filters survive a reload through the URL.
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    expect(await countText(page)).toMatch(/^1 of 146/);
    await page.close();
  });

  it('shows hostile answers, reasoning and queries as text and runs none of it; shows two answers side by side', async () => {
    const { page, errors, requests } = await open(
      `${pathToFileURL(path.join(work, 'report.html')).href}#q=hostile`,
    );
    await page.click('#case-list button');
    await page.waitForSelector('.answer-column pre.response');
    expect(await page.textContent('.answer-column pre.response')).toBe(`answer ${PAYLOAD}`);
    expect(await page.textContent('.answer-column pre.reasoning')).toBe(`reasoning ${PAYLOAD}`);
    expect(await page.textContent('pre.query-text')).toBe(`query ${PAYLOAD}`);
    await page.hover('pre.query-text');
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(await page.locator('#case-body img, #case-body script, #case-body b').count()).toBe(0);
    await page.selectOption('#compare-select', { index: 1 });
    await page.waitForSelector('.answers.side-by-side');
    const columns = await page.locator('.answer-column h3').allTextContents();
    expect(columns).toHaveLength(2);
    expect(columns[0]).toContain('openai:gpt-4o');
    expect(columns[1]).toContain('anthropic:claude-sonnet-4-5');
    expect(await page.locator('.answer-column pre.response').nth(1).textContent()).toBe(
      'a calm answer',
    );
    expect(errors).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    await page.close();
  });

  it('the viewer serves the same interface from 127.0.0.1 and asks only itself', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-browser-run-'));
    writeFileSync(path.join(dir, 'judgements.jsonl'), jsonl(specs.map(fakeApbLine)));
    const viewer = await startViewer([dir], { port: 0 });
    try {
      const { page, errors, requests } = await open(viewer.url);
      expect(await countText(page)).toMatch(/^146 of 146 judgements/);
      await page.waitForFunction(() =>
        document.querySelector('#live-status')?.textContent?.includes('up to date'),
      );
      await page.selectOption('#filter-model', { label: 'anthropic:claude-sonnet-4-5' });
      expect(await countText(page)).toMatch(/^73 of 146/);
      await page.click('#case-list button');
      await page.waitForSelector('.answer-column');
      expect(errors).toEqual([]);
      expect(requests.every((url) => url.startsWith(viewer.url))).toBe(true);
      expect(
        await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
      ).toBeUndefined();
      await page.close();
    } finally {
      await viewer.close();
    }
  });
});
