#!/usr/bin/env node
// Report benchmark at APB scale (plain Node ESM over the built dist/): 12 models × 4,209 cases =
// 50,508 judgements. Times rows, all tables, Markdown / JSON / the HTML report, and, in Debian's
// chromium, the time until the HTML report is loaded and interactive. Run alone
// (`node --expose-gc bench/report.mjs [--no-browser] [--repeats=N]`, after `npm run build`) or
// through bench/run.js via `benchReport({ browser, quiet, repeats })`.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { benchLines } from './report-data.mjs';

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
const TARGETS = { tablesAndHtmlMs: 5000, browserInteractiveMs: 3000 };

const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;

async function timed(label, figures, work) {
  const start = performance.now();
  const result = await work();
  figures[label] = Math.round(performance.now() - start);
  return result;
}

/** Loads the report in chromium: ms until the case browser is interactive, then a filter and a case open. */
async function browserFigures(file) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  try {
    const page = await context.newPage();
    const requests = [];
    page.on('request', (request) => requests.push(request.url()));
    const start = performance.now();
    await page.goto(pathToFileURL(file).href, { timeout: 60_000 });
    await page.waitForSelector('html[data-ready="true"]', { timeout: 60_000 });
    const wallMs = Math.round(performance.now() - start);
    const pageMs = Math.round(
      await page.evaluate(() => performance.getEntriesByName('apb-ready')[0]?.startTime ?? NaN),
    );
    const filterStart = performance.now();
    await page.selectOption('#filter-model', { index: 3 });
    await page.waitForFunction(
      () => !document.querySelector('#case-count')?.textContent?.startsWith('50,508 of'),
    );
    const filterMs = Math.round(performance.now() - filterStart);
    const openStart = performance.now();
    await page.click('#case-list button');
    await page.waitForSelector('.answer-column pre.response');
    const openMs = Math.round(performance.now() - openStart);
    return {
      browserInteractiveMs: pageMs,
      browserWallMs: wallMs,
      filterMs,
      openCaseMs: openMs,
      requests: requests.length,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the report benchmark (each Node step `repeats` times, the median kept); returns the figures (ms, bytes) and prints them unless `quiet`. */
export async function benchReport({ browser = true, quiet = false, repeats = 3 } = {}) {
  const { rowFromJudgementLine } = await import(dist('pipeline/result-rows.js'));
  const { computeTables } = await import(dist('metrics/tables.js'));
  const { buildReportData } = await import(dist('report/report-data.js'));
  const { FORMATS } = await import(dist('report/formats.js'));
  const lines = benchLines();
  const samples = [];
  let html = '';
  for (let round = 0; round < repeats; round += 1) {
    globalThis.gc?.();
    const sample = {};
    const items = await timed('rowsMs', sample, () =>
      lines.map((line) => ({ line, row: rowFromJudgementLine(line) })),
    );
    await timed('tablesOnlyMs', sample, () => computeTables(items.map((item) => item.row)));
    const data = await timed('reportDataMs', sample, () =>
      buildReportData([{ dir: 'bench', rows: [], manifest: null, lines: items }], {
        caseBrowser: true,
        generatedAt: new Date().toISOString(),
      }),
    );
    await timed('markdownMs', sample, () => FORMATS.md(data));
    await timed('jsonMs', sample, () => FORMATS.json(data));
    html = await timed('htmlMs', sample, () => FORMATS.html(data));
    sample.tablesAndHtmlMs = sample.reportDataMs + sample.htmlMs;
    samples.push(sample);
  }
  const figures = { judgements: lines.length, repeats };
  for (const key of Object.keys(samples[0]))
    figures[key] = median(samples.map((sample) => sample[key]));
  figures.coldTablesAndHtmlMs = samples[0].tablesAndHtmlMs;
  figures.tablesAndHtmlRangeMs = [
    Math.min(...samples.map((sample) => sample.tablesAndHtmlMs)),
    Math.max(...samples.map((sample) => sample.tablesAndHtmlMs)),
  ];
  figures.htmlBytes = Buffer.byteLength(html);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apb-bench-report-'));
  const file = path.join(dir, 'report.html');
  writeFileSync(file, html);
  try {
    if (browser && existsSync(CHROMIUM)) Object.assign(figures, await browserFigures(file));
    else
      figures.browser = `skipped (${existsSync(CHROMIUM) ? 'disabled' : `${CHROMIUM} not found`})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  figures.machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  if (!quiet) {
    const row = (label, value, target) =>
      console.log(
        `${label.padEnd(44)} ${String(value).padStart(10)}${target ? `   (target ≤ ${target} ms: ${value <= target ? 'met' : 'MISSED'})` : ''}`,
      );
    console.log(
      `report benchmark: ${figures.judgements.toLocaleString('en-US')} judgements (12 models × 4,209 cases) on ${figures.machine}; Node steps: median of ${repeats}`,
    );
    row('judgement lines → rows (ms)', figures.rowsMs);
    row('all tables, computeTables (ms)', figures.tablesOnlyMs);
    row('report data: tables + case browser (ms)', figures.reportDataMs);
    row('Markdown (ms)', figures.markdownMs);
    row('JSON (ms)', figures.jsonMs);
    row('HTML incl. figures, compression (ms)', figures.htmlMs);
    row('tables + HTML (ms)', figures.tablesAndHtmlMs, TARGETS.tablesAndHtmlMs);
    row('tables + HTML, first (cold) round (ms)', figures.coldTablesAndHtmlMs);
    row('tables + HTML, fastest–slowest (ms)', figures.tablesAndHtmlRangeMs.join('–'));
    row('load average (1 min) at the end', os.loadavg()[0].toFixed(2));
    row('HTML size (MB)', (figures.htmlBytes / 2 ** 20).toFixed(1));
    if (figures.browserInteractiveMs !== undefined) {
      row(
        'chromium: navigation → interactive (ms)',
        figures.browserInteractiveMs,
        TARGETS.browserInteractiveMs,
      );
      row('chromium: goto → interactive, wall (ms)', figures.browserWallMs);
      row('chromium: filter by model (ms)', figures.filterMs);
      row('chromium: open a case (ms)', figures.openCaseMs);
      row('chromium: requests made', figures.requests);
    } else console.log(`chromium: ${figures.browser}`);
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const repeats = Number(
    process.argv.find((arg) => arg.startsWith('--repeats='))?.slice('--repeats='.length) ?? 3,
  );
  await benchReport({ browser: !process.argv.includes('--no-browser'), repeats });
}
