/**
 * `apb view runs/` in Chromium: the viewer finds the run directories (and the leaderboard) below a
 * folder and lists them as a history — model, judge, data, date, status, headline CR — with a
 * running run shown as "N of M, ETA"; each run opens live with a way back; no console error and
 * no request outside the viewer.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../../src/report/viewer/server.js';
import { cli, tempDir } from '../engine/helpers.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';

const skip = skipBrowserTests();
let root: string;
let viewer: Viewer;
let context: BrowserContext;

/** A run caught in the middle: the manifest says running, 23 of its 69 judgements are on disk, started a minute ago. */
function fakeRunning(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(from, 'manifest.json'), 'utf8'));
  const started = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(
    path.join(to, 'manifest.json'),
    JSON.stringify({
      ...manifest,
      status: 'running',
      created_at: started,
      finished_at: null,
      progress: { total: 69, already_done: 0, started_at: started },
    }),
  );
  writeFileSync(
    path.join(to, 'judgements.jsonl'),
    `${readFileSync(path.join(from, 'judgements.jsonl'), 'utf8').split('\n').slice(0, 23).join('\n')}\n`,
  );
  copyFileSync(path.join(from, 'predictions.jsonl'), path.join(to, 'predictions.jsonl'));
}

beforeAll(async () => {
  if (skip) return;
  root = path.join(tempDir('apb-history-'), 'runs');
  const board = await cli([
    'run',
    '--model',
    'baseline:oracle',
    '--model',
    'baseline:heuristic',
    '--out',
    path.join(root, 'board'),
    '--quiet',
  ]);
  const single = await cli([
    'run',
    '--model',
    'baseline:refuse',
    '--splits',
    'holistic',
    '--out',
    path.join(root, 'refuse'),
    '--quiet',
  ]);
  if (board.code !== 0 || single.code !== 0) throw new Error(board.stderr + single.stderr);
  fakeRunning(
    path.join(root, 'board', 'baseline-oracle'),
    path.join(root, 'nested', 'live-oracle'),
  );
  viewer = await startViewer([root], { minIntervalMs: 0 });
  context = await launchChromium();
}, 120_000);
afterAll(async () => {
  await context?.close();
  await viewer?.close();
});

describe.skipIf(skip)('apb view runs/: the history', () => {
  it('lists every run below the folder with model, judge, data, date, status and headline CR, and the running one as N of M, ETA', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(viewer.url);
    const rows = await page.$$eval('tr.history-run', (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    expect(rows).toHaveLength(4);
    const byModel = Object.fromEntries(rows.map((row) => [row[1], row]));
    expect(byModel['baseline:oracle']).toBeDefined();
    const live = rows.find((row) => row[5] === 'running')!;
    expect(live[0]).toContain('live-oracle');
    expect(live[6]).toMatch(/^23 of 69, ETA \d+m\d{2}s$/);
    const finished = rows.find((row) => row[0]!.endsWith('baseline-oracle'))!;
    expect(finished.slice(1, 3)).toEqual(['baseline:oracle', 'rules']);
    expect(finished[3]).toMatch(/^sample \([0-9a-f]{8}\)$/);
    expect(finished[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(finished[5]).toBe('complete');
    expect(finished[7]).toBe('100.0 % holistic CR');
    expect(byModel['baseline:refuse']![7]).toBe('0.0 % holistic CR');
    expect(
      await page.$$eval('#boards a', (links) => links.map((link) => link.textContent)),
    ).toEqual([expect.stringMatching(/board$/)]);
    expect(await page.getAttribute('meta[http-equiv="refresh"]', 'content')).toBe('5');

    // A run opens live, with its progress in the banner and a way back to the history.
    await page.click(`tr.history-run:has-text("live-oracle") a`);
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForFunction(() =>
      /23 of 69, ETA/.test(document.getElementById('live-status')?.textContent ?? ''),
    );
    expect(await page.textContent('#case-count')).toMatch(/^23 of 23 judgements/);
    await page.click('#live-history');
    await page.waitForSelector('tr.history-run');
    await page.click('#boards a');
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.textContent('#case-count')).toMatch(/^138 of 138 judgements/);
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith(viewer.url))).toBe(true);
    await page.close();
  });

  it('serves only its pages: an unknown run number is 404', async () => {
    const response = await fetch(`${viewer.url}runs/99/`);
    expect(response.status).toBe(404);
    const history = (await (await fetch(`${viewer.url}api/history.json`)).json()) as {
      runs: { status: string }[];
    };
    expect(history.runs.map((run) => run.status).sort()).toEqual([
      'complete',
      'complete',
      'complete',
      'running',
    ]);
  });
});
