/**
 * The end-of-run summary over real HTTP (the loopback fake, an LLM planner and an LLM judge, both
 * priced): the terminal summary shows the headline numbers with n, outcomes, tokens and cost by
 * role; `--json` prints the same object for scripts; `--quiet` prints nothing; report.md and
 * report.html show the same usage and cost.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usd } from '../../src/report/numbers.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import {
  cli,
  JUDGE_MODEL,
  readManifest,
  sampleScript,
  SECRET_KEY,
  tempDir,
} from '../engine/helpers.js';

let server: FakeServer;

beforeAll(async () => {
  const script = await sampleScript();
  // gpt-4o plans, gpt-4o-mini judges: the scripted responder answers a judge by its model name.
  server = await startFakeServer({
    respond: (request) =>
      script.respond(
        request.parsed?.model === 'gpt-4o-mini'
          ? { ...request, parsed: { ...request.parsed, model: JUDGE_MODEL } }
          : request,
      ),
  });
});
afterAll(() => server?.close());

const run = (out: string, extra: string[] = []) =>
  cli(
    [
      'run',
      '--model',
      'openai:gpt-4o',
      '--base-url',
      server.baseUrl('openai'),
      '--judge',
      'openai:gpt-4o-mini',
      '--judge-base-url',
      server.baseUrl('openai'),
      '--no-cache',
      '--out',
      out,
      ...extra,
    ],
    { OPENAI_API_KEY: SECRET_KEY },
  );

describe('end-of-run summary', () => {
  it('prints headline numbers, outcomes, tokens and cost by role, and the report and view paths; report.md and report.html show the same cost', async () => {
    const out = path.join(tempDir('apb-summary-'), 'run');
    const result = await run(out);
    expect(result.code, result.stderr).toBe(0);
    const manifest = readManifest(out);
    const { planner, judge } = manifest.usage;
    expect(planner.cost_usd).toBeGreaterThan(0);
    expect(judge.cost_usd).toBeGreaterThan(0);
    const total = planner.cost_usd + judge.cost_usd;
    const text = result.stderr;
    expect(text).toMatch(/apb: run complete in [\d.]+ s/);
    expect(text).toMatch(/Holistic CR %.*\n.*openai:gpt-4o\s+[\d.]+ \[[\d.]+–[\d.]+\] n=10/);
    expect(text).toContain(
      `outcomes: 69 judged · ${manifest.counts.judgements.ok - manifest.counts.predictions.parse_error} ok · 0 error · ${manifest.counts.predictions.parse_error} parse_error · 0 judge_error`,
    );
    expect(text).toContain(
      `planner 69 calls, ${planner.input_tokens.toLocaleString('en-US')} in / ${planner.output_tokens.toLocaleString('en-US')} out tokens, ${usd(planner.cost_usd)}`,
    );
    expect(text).toContain(
      `judge 69 calls, ${judge.input_tokens.toLocaleString('en-US')} in / ${judge.output_tokens.toLocaleString('en-US')} out tokens, ${usd(judge.cost_usd)}`,
    );
    expect(text).toContain(`total ${usd(total)}`);
    expect(text).toMatch(/top failures: 2× parse: /);
    expect(text).toContain(`report: ${path.join(out, 'report.html')}`);
    expect(text).toContain(`open it live: npx apb view ${out}`);
    expect(text).not.toContain(SECRET_KEY);
    const markdown = readFileSync(path.join(out, 'report.md'), 'utf8');
    const usageTable = markdown.slice(
      markdown.indexOf('## Usage and cost'),
      markdown.indexOf('## Endpoints'),
    );
    for (const figure of [
      usd(planner.cost_usd),
      usd(judge.cost_usd),
      usd(total),
      planner.input_tokens.toLocaleString('en-US'),
      judge.output_tokens.toLocaleString('en-US'),
    ])
      expect(usageTable).toContain(figure);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    const usageHtml = html.slice(
      html.indexOf('<section id="usage">'),
      html.indexOf('</section>', html.indexOf('<section id="usage">')),
    );
    for (const figure of [usd(planner.cost_usd), usd(judge.cost_usd), usd(total)])
      expect(usageHtml).toContain(figure);
  });

  it('--json prints the summary object on stdout, --quiet prints nothing', async () => {
    const work = tempDir('apb-summary-json-');
    const json = await run(path.join(work, 'json'), [
      '--json',
      '--splits',
      'holistic',
      '--limit',
      '2',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout);
    const manifest = readManifest(path.join(work, 'json'));
    expect(summary).toMatchObject({
      command: 'run',
      status: 'complete',
      report_html: path.join(work, 'json', 'report.html'),
    });
    expect(summary.wall_ms).toBeGreaterThan(0);
    expect(summary.entries).toHaveLength(1);
    const [entry] = summary.entries;
    expect(entry).toMatchObject({
      model: 'openai:gpt-4o',
      judge: 'openai:gpt-4o-mini',
      outcomes: { judgements: manifest.counts.cases },
    });
    expect(entry.usage.find((role: any) => role.role === 'planner')).toEqual({
      role: 'planner',
      ...manifest.usage.planner,
    });
    expect(entry.cost_usd).toBeCloseTo(
      manifest.usage.planner.cost_usd + manifest.usage.judge.cost_usd,
      12,
    );
    expect(entry.headline.map((cell: any) => cell.label)).toEqual([
      'Holistic CR',
      'Tool-extraneous CR',
      'Unsolvable pass',
    ]);
    expect(json.stderr).not.toContain('apb: run complete');
    const quiet = await run(path.join(work, 'quiet'), [
      '--quiet',
      '--splits',
      'holistic',
      '--limit',
      '2',
    ]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toBe('');
  });
});
