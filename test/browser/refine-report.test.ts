/**
 * A refined run's report in a real browser (Debian's chromium): Table 4 and its figure, and the case
 * browser showing the initial answer with its verdict beside the refined one, and the critique of
 * each round; a hostile critique shows as text and runs nothing.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../engine/helpers.js';
import { critiqueText, kindOf, sourceArgs, useRefineServer } from '../refine/script.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const PAYLOAD = '</script><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

const fake = useRefineServer();
let refined = '';
let context: BrowserContext;

beforeAll(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'apb-refine-browser-'));
  const source = path.join(work, 'source');
  const url = fake.server.baseUrl('openai');
  expect(
    (await cli(sourceArgs(url, source, ['--splits', 'holistic_planning', '--limit', '2']))).code,
  ).toBe(0);
  fake.server.configure({
    respond: (request) =>
      kindOf(request) === 'critique'
        ? { text: `${critiqueText('self+', 'any')} ${PAYLOAD}` }
        : fake.script.respond(request),
  });
  refined = path.join(work, 'refined');
  expect(
    (
      await cli([
        'refine',
        source,
        '--mode',
        'self',
        '--rounds',
        '2',
        '--out',
        refined,
        '--no-cache',
      ])
    ).code,
  ).toBe(0);
  if (existsSync(CHROMIUM))
    context = await chromium.launchPersistentContext(
      mkdtempSync(path.join(tmpdir(), 'apb-chromium-')),
      { executablePath: CHROMIUM, headless: true, args: ARGS },
    );
}, 90_000);

afterAll(async () => {
  await context?.close();
});

describe.skipIf(!existsSync(CHROMIUM))('refined report in chromium', () => {
  it('shows Table 4, and before / critiques / after side by side in the case browser, hostile text as text', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(pathToFileURL(path.join(refined, 'report.html')).href);
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.textContent('body')).toContain('Table 4 · Inference-time refinement');
    expect(await page.locator('#case-list tr').first().textContent()).toContain(
      'refined Self_R+ ×2 rounds',
    );
    await page.click('#case-list button');
    await page.waitForSelector('.refine-round');
    const section = page.locator('details.section', { hasText: 'Refinement · Self_R+' });
    expect(await section.locator('h4').allTextContents()).toEqual([
      'Before: initial answer',
      'After: refined answer',
      'Round 1: critique by openai-compatible:fake-planner',
      'Round 2: critique by openai-compatible:fake-planner',
    ]);
    expect(await section.locator('.answers.side-by-side .answer-column').count()).toBe(2);
    expect(await section.locator('pre.critique').first().textContent()).toContain(PAYLOAD);
    expect(await section.textContent()).toMatch(
      /Verdict: (in)?correct · grade [01]\.\d \(from the source run\)/,
    );
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(await page.locator('#case-body img, #case-body script').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
