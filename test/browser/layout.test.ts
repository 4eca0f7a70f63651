/**
 * The report's layout in Chromium at 1366 px, on a real leaderboard (three baselines over the
 * built-in sample, written by `apb run`): no table is cut without a visible cue, the case list
 * sorts by any column and exports the filtered list as CSV and JSONL, the opened case sits beside
 * the list, every section is in the navigation, figure lines carry distinct markers, whiskers and
 * direct labels, a JSON answer is pretty-printed and compared step by step with the reference;
 * no console error and no request but the file itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../engine/helpers.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';

const skip = skipBrowserTests();
const MODELS = ['baseline:oracle', 'baseline:heuristic', 'baseline:refuse'];
let board: string;
let context: BrowserContext;

beforeAll(async () => {
  if (skip) return;
  board = path.join(tempDir('apb-layout-'), 'board');
  const result = await cli([
    'run',
    ...MODELS.flatMap((model) => ['--model', model]),
    '--out',
    board,
    '--quiet',
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  context = await launchChromium();
}, 120_000);
afterAll(async () => context?.close());

async function open(
  hash = '',
): Promise<{ page: Page; errors: string[]; requests: string[]; url: string }> {
  const url = pathToFileURL(path.join(board, 'leaderboard.html')).href;
  const page = await context.newPage();
  await page.setViewportSize({ width: 1366, height: 860 });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on(
    'console',
    (message) =>
      (message.type() === 'error' || message.type() === 'warning') && errors.push(message.text()),
  );
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url + hash);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, errors, requests, url };
}

/** Every table that is wider than its box, and whether it shows the cue; tables outside a scroller count as cut. */
const cutTables = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')].flatMap((table) => {
      const wrap = table.closest('.table-wrap');
      const box = wrap?.querySelector('.scroll');
      if (!wrap || !box)
        return table.getBoundingClientRect().right > document.documentElement.clientWidth
          ? [{ id: table.className, cue: false }]
          : [];
      if (box.scrollWidth <= box.clientWidth + 1) return [];
      const cue = wrap.querySelector('.scroll-cue') as HTMLElement;
      return [
        {
          id: table.closest('section')?.id ?? table.className,
          cue: getComputedStyle(cue).display !== 'none' && wrap.classList.contains('overflowing'),
        },
      ];
    }),
  );

/** The texts of one column of the case list, found by its header (the judge column is left out with one judge). */
const columnShown = (page: Page, key: string) =>
  page.evaluate((wanted) => {
    const headers = [...document.querySelectorAll('table.cases th')].filter(
      (th) => !(th as HTMLElement).hidden,
    );
    const index = headers.findIndex((th) => th.getAttribute('data-sort') === wanted);
    return [...document.querySelectorAll('#case-list tr')].map(
      (row) => row.children[index]?.textContent ?? '',
    );
  }, key);
const gradesShown = (page: Page) => columnShown(page, 'grade');

describe.skipIf(skip)('report layout in chromium at 1366 px', () => {
  it('cuts no table without a visible cue, also with a case open beside the list, and the cue goes at the end', async () => {
    const { page, errors, requests, url } = await open();
    const cut = await cutTables(page);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.filter((table) => !table.cue)).toEqual([]);
    await page.click('#case-list button');
    await page.waitForSelector('.answer-column');
    expect((await cutTables(page)).filter((table) => !table.cue)).toEqual([]);
    // Scrolled to its end, a table shows no cue; the first column stays in place.
    const scrolled = await page.evaluate(() => {
      const wrap = document.querySelector('#scorecard .table-wrap')!;
      const box = wrap.querySelector('.scroll')!;
      const before = wrap.querySelector('td')!.getBoundingClientRect().left;
      box.scrollLeft = box.scrollWidth;
      box.dispatchEvent(new Event('scroll'));
      return {
        before,
        after: wrap.querySelector('td')!.getBoundingClientRect().left,
        atEnd: wrap.classList.contains('at-end'),
      };
    });
    expect(scrolled.atEnd).toBe(true);
    expect(Math.abs(scrolled.after - scrolled.before)).toBeLessThan(1);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });

  it('sorts the case list by any column (ascending, descending, back to dataset order) and keeps the order in the URL', async () => {
    const { page } = await open();
    const datasetOrder = await page.$$eval('#case-list tr', (rows) =>
      rows.map((row) => row.textContent),
    );
    await page.click('th[data-sort="grade"] button');
    const ascending = (await gradesShown(page)).map(Number);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    expect(await page.getAttribute('th[data-sort="grade"]', 'aria-sort')).toBe('ascending');
    await page.click('th[data-sort="grade"] button');
    const descending = (await gradesShown(page)).map(Number);
    expect(descending[0]).toBe(1);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    expect(page.url()).toContain('sort=grade&dir=desc');
    await page.click('th[data-sort="grade"] button');
    expect(
      await page.$$eval('#case-list tr', (rows) => rows.map((row) => row.textContent)),
    ).toEqual(datasetOrder);
    expect(await page.textContent('#sort-note')).toContain('in dataset order');
    await page.click('th[data-sort="model"] button');
    const models = await columnShown(page, 'model');
    expect(models.every((model) => model === 'baseline:heuristic')).toBe(true);
    await page.close();
  });

  it('exports the filtered list as CSV and JSONL (all pages, not just the one shown)', async () => {
    const { page, requests, url } = await open();
    await page.selectOption('#filter-model', { label: 'baseline:refuse' });
    const shown = Number((await page.textContent('#case-count'))!.split(' ')[0]);
    expect(shown).toBe(69);
    const fetch = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      return readFileSync((await download.path())!, 'utf8');
    };
    const csv = (await fetch('#export-csv')).trim().split('\r\n');
    expect(csv[0]).toBe(
      'case_id,split,model,judge,repeat,outcome,grade,errors,behaviour,facet,query',
    );
    expect(csv).toHaveLength(1 + 69);
    expect(csv.slice(1).every((line) => line.split(',')[2] === 'baseline:refuse')).toBe(true);
    const jsonl = (await fetch('#export-jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(jsonl).toHaveLength(69);
    expect(new Set(jsonl.map((record) => record.model))).toEqual(new Set(['baseline:refuse']));
    expect(
      jsonl
        .filter((record) => record.split === 'holistic_unsolvable')
        .every((record) => record.outcome === 'correct'),
    ).toBe(true);
    expect(requests).toEqual([url]);
    await page.close();
  });

  it('shows the opened case beside the list, its JSON answer pretty-printed and compared with the reference step by step', async () => {
    const { page } = await open(`#model=0&split=0`);
    await page.click('#case-list tr:nth-child(8) button');
    await page.waitForSelector('.answer-column');
    const [list, view] = await Promise.all([
      page.$eval('.list-pane', (node) => node.getBoundingClientRect().toJSON()),
      page.$eval('#case-view', (node) => node.getBoundingClientRect().toJSON()),
    ]);
    expect(view.left).toBeGreaterThanOrEqual(list.right);
    expect(view.top).toBeLessThan(860);
    expect(
      await page.$eval('.answer-column pre.response.pretty', (node) =>
        node.textContent!.startsWith('{\n  "'),
      ),
    ).toBe(true);
    const matches = await page.$$eval('.answer-column table.steps td.match', (cells) =>
      cells.map((cell) => cell.textContent),
    );
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.every((text) => text === '✓ same call')).toBe(true);
    await page.close();
  });

  it('has every section in the navigation, and figure lines with distinct markers, interval whiskers and direct labels', async () => {
    const { page } = await open();
    const { sections, links } = await page.evaluate(() => ({
      sections: [...document.querySelectorAll('main > section[id]')]
        .map((section) => section.id)
        .filter((id) => id !== 'endpoints'),
      links: [...document.querySelectorAll('header nav a')].map((link) =>
        link.getAttribute('href')!.slice(1),
      ),
    }));
    expect(links.sort()).toEqual(sections.sort());
    const figure = await page.$eval('#fig5 svg', (svg) => ({
      circles: svg.querySelectorAll('circle').length,
      squares: svg.querySelectorAll('rect[width="8"]').length,
      triangles: svg.querySelectorAll('polygon').length,
      whiskers: svg.querySelectorAll('path').length,
      labels: [...svg.querySelectorAll('text.direct-label')].map(
        (label) => label.firstChild?.textContent,
      ),
    }));
    expect(figure.circles).toBeGreaterThan(0);
    expect(figure.squares).toBeGreaterThan(0);
    expect(figure.triangles).toBeGreaterThan(0);
    expect(figure.whiskers).toBeGreaterThan(0);
    expect(figure.labels.sort()).toEqual([...MODELS].sort());
    await page.close();
  });
});
