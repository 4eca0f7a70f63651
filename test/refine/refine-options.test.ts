/**
 * `apb refine` beyond the happy path: a failed critique is recorded as such (never judged as an
 * empty answer) and `--retry-errors` sends only the failed step again; another `--judge` judges the
 * initial answers too, so base and refined share a judge; the paper's sample; refused usages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { acquireRunLock } from '../../src/rundir/lock.js';
import { caseKey, cli, readJsonl, readManifest, tempDir } from '../engine/helpers.js';
import { kindOf, sourceArgs, useRefineServer } from './script.js';

const fake = useRefineServer();

/** Runs the CLI's `main` in this process and collects what it writes to stderr. */
async function inProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const spy = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    return { code: await main(args), stderr };
  } finally {
    spy.mockRestore();
  }
}
let source = '';
beforeAll(async () => {
  source = path.join(tempDir('apb-refine-opt-'), 'source');
  const run = await cli(sourceArgs(fake.server.baseUrl('openai'), source));
  if (run.code !== 0) throw new Error(run.stderr);
});

describe('apb refine failures and options', () => {
  it('records a failed critique as a failure, judges nothing for it, counts it in Table 4, and --retry-errors re-sends only that step', async () => {
    const failing = 'holistic_planning/sample-hp-02';
    fake.server.configure({
      respond: (request) =>
        kindOf(request) === 'critique' && fake.script.base.caseOf(request) === failing
          ? { status: 500, message: 'critic down' }
          : fake.script.respond(request),
    });
    const out = path.join(tempDir('apb-refine-opt-'), 'refined');
    const args = [
      'refine',
      source,
      '--mode',
      'self',
      '--out',
      out,
      '--no-cache',
      '--max-retries',
      '0',
      '--splits',
      'holistic_planning',
    ];
    expect((await cli(args)).code).toBe(0);
    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    const failed = judgements.find((line) => caseKey(line) === failing)!;
    expect(failed.model_response).toBe('');
    expect(failed.apb.prediction.status).toBe('error');
    expect(failed.apb.refinement).toMatchObject({
      status: 'critique_failed',
      round: 0,
      revisions: [],
      critiques: [{ status: 'error', error: { status: 500 } }],
    });
    expect(failed.judgement).toMatchObject({ is_correct: false, grade: 0 });
    expect(failed.judgement.reasoning).toMatch(
      /^no refined answer to judge: critique_failed: round 1: the critique call failed/,
    );
    // 6 answers, 5 refined and judged; no judge call for the failed one.
    expect(fake.server.requests.filter((request) => kindOf(request) === 'judge')).toHaveLength(5);
    const table4 = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8')).tables.table4;
    expect(table4[0]).toMatchObject({ regime: 'holistic', n: 6, failed: 1 });

    fake.server.reset();
    expect((await cli([...args, '--retry-errors'])).code).toBe(0);
    expect(
      fake.server.requests.map((request) => [kindOf(request), fake.script.base.caseOf(request)]),
    ).toEqual([
      ['critique', failing],
      ['revision', failing],
      ['judge', failing],
    ]);
    const retried = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(retried).toHaveLength(6);
    expect(retried.find((line) => caseKey(line) === failing)!.apb.refinement.status).toBe('ok');
  }, 60_000);

  it('with another --judge, judges the initial answers too (the base and the refined answer share a judge), and resumes without judging them again', async () => {
    const out = path.join(tempDir('apb-refine-opt-'), 'rejudged');
    const args = [
      'refine',
      source,
      '--mode',
      'self',
      '--judge',
      'rules',
      '--out',
      out,
      '--no-cache',
      '--splits',
      'holistic_planning',
    ];
    expect((await cli(args)).code).toBe(0);
    const lines = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(
      lines.every(
        (line) =>
          line.judge_model === 'rules' &&
          line.apb.refinement.initial.judged_in === 'refine' &&
          line.apb.refinement.initial.judge === 'rules',
      ),
    ).toBe(true);
    expect(readManifest(out).identity.judges).toEqual(['rules']);
    fake.server.reset();
    const again = await cli(args);
    expect(again.code).toBe(0);
    expect(fake.server.count()).toBe(0);
    expect(again.stderr).toContain('6 already finished');
  }, 60_000);

  it('--max-cost covers the critique and revision calls, each priced as its own role: it stops early (exit 0, stopped-budget), and a rerun with more budget finishes', async () => {
    const url = fake.server.baseUrl('openai');
    const priced = path.join(tempDir('apb-refine-opt-'), 'priced');
    const key = { OPENAI_API_KEY: 'sk-refine-budget-test-0000' };
    expect(
      (
        await cli(
          [
            'run',
            '--model',
            'openai:gpt-4o',
            '--base-url',
            url,
            '--judge',
            'rules',
            '--splits',
            'holistic_planning',
            '--limit',
            '6',
            '--out',
            priced,
            '--no-cache',
          ],
          key,
        )
      ).code,
    ).toBe(0);
    const out = path.join(tempDir('apb-refine-opt-'), 'budget');
    const args = (maxCost: string) => [
      'refine',
      priced,
      '--mode',
      'critic',
      '--critic',
      'openai:gpt-4o-mini',
      '--critic-base-url',
      url,
      '--out',
      out,
      '--no-cache',
      '--concurrency',
      '1',
      '--max-cost',
      maxCost,
    ];
    const stopped = await cli(args('0.02'), key);
    expect(stopped.code, stopped.stderr).toBe(0);
    const early = readManifest(out);
    expect(early.status).toBe('stopped-budget');
    expect(early.counts.judgements.ok).toBeLessThan(6);
    expect(early.budget).toMatchObject({ max_cost_usd: 0.02, stopped: true });
    expect(early.budget.spent_usd).toBeLessThanOrEqual(0.02);
    const finished = await cli(args('1'), key);
    expect(finished.code, finished.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest).toMatchObject({
      status: 'complete',
      counts: { judgements: { ok: 6 } },
      usage: { critic: { calls: 6 }, planner: { calls: 6 } },
    });
    // The critic's tokens are priced as its own role, at the critic's price.
    expect(manifest.usage.critic.cost_usd).toBeGreaterThan(0);
    expect(manifest.usage.critic.cost_usd).toBeCloseTo(
      (manifest.usage.critic.input_tokens * 0.15 + manifest.usage.critic.output_tokens * 0.6) / 1e6,
      10,
    );
    expect(manifest.usage.planner.cost_usd).toBeCloseTo(
      (manifest.usage.planner.input_tokens * 2.5 + manifest.usage.planner.output_tokens * 10) / 1e6,
      10,
    );
  }, 60_000);

  it('answers critiques and revisions from the response cache on a second refinement (no request sent), counted as cached calls', async () => {
    const cache = tempDir('apb-refine-cache-');
    const args = (out: string) => [
      'refine',
      source,
      '--mode',
      'self',
      '--splits',
      'holistic_planning',
      '--limit',
      '3',
      '--out',
      out,
    ];
    expect(
      (await cli(args(path.join(tempDir('apb-refine-opt-'), 'first')), { APB_CACHE_DIR: cache }))
        .code,
    ).toBe(0);
    fake.server.reset();
    const second = path.join(tempDir('apb-refine-opt-'), 'second');
    expect((await cli(args(second), { APB_CACHE_DIR: cache })).code).toBe(0);
    expect(
      fake.server.requests.filter(
        (request) => kindOf(request) === 'critique' || kindOf(request) === 'revision',
      ),
    ).toHaveLength(0);
    expect(readManifest(second).usage).toMatchObject({
      critic: { calls: 3, cached_calls: 3 },
      planner: { calls: 3, cached_calls: 3 },
    });
  }, 60_000);

  it('--sample-per-source keeps N cases per source of each split, recorded in the manifest', async () => {
    const out = path.join(tempDir('apb-refine-opt-'), 'sampled');
    expect(
      (
        await cli([
          'refine',
          source,
          '--mode',
          'self',
          '--sample-per-source',
          '2',
          '--seed',
          '7',
          '--out',
          out,
          '--no-cache',
        ])
      ).code,
    ).toBe(0);
    const lines = readJsonl(path.join(out, 'judgements.jsonl'));
    // The sample has one source per split: two cases of each of the two splits.
    expect(lines.map((line) => line.split).sort()).toEqual([
      'holistic_planning',
      'holistic_planning',
      'step_wise_planning',
      'step_wise_planning',
    ]);
    expect(readManifest(out).refine_selection).toMatchObject({
      sample: { perSource: 2, seed: '7' },
      answers: 4,
    });
  }, 60_000);

  it("--sample paper keeps the first cases of each source in file order (the paper's sample), recorded in the manifest", async () => {
    const out = path.join(tempDir('apb-refine-opt-'), 'paper-sample');
    const args = ['refine', source, '--mode', 'self', '--sample', 'paper'];
    const result = await cli([...args, '--sample-per-source', '2', '--out', out, '--no-cache']);
    expect(result.code, result.stderr).toBe(0);
    const lines = readJsonl(path.join(out, 'judgements.jsonl'));
    // Two per split, and they are the first two of each split's file.
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(fake.script.positionOf(caseKey(line))).toBeLessThan(2);
    expect(readManifest(out).refine_selection).toMatchObject({
      sample: { perSource: 2, order: 'file', perSubset: { 'real-traffic': 5, skywork: 5 } },
    });
  }, 60_000);

  it('refuses bad usage with one line and exit 2, and a directory of another refinement', async () => {
    const out = path.join(tempDir('apb-refine-opt-'), 'refused');
    const cases: Array<[string[], RegExp]> = [
      [['refine', source, '--out', out], /--mode must be self or critic/],
      [['refine', source, '--mode', 'critic', '--out', out], /--mode critic needs --critic SPEC/],
      [
        ['refine', source, '--mode', 'self', '--critic', 'openai:gpt-4o', '--out', out],
        /--critic goes with --mode critic/,
      ],
      [['refine', source, '--mode', 'self'], /needs --out DIR/],
      [['refine', source, '--mode', 'self', '--out', source], /must not be the source run/],
      [
        ['refine', source, '--mode', 'self', '--ids', 'no-such-case', '--out', out],
        /nothing to refine/,
      ],
      [
        ['refine', source, '--mode', 'self', '--sample-per-subset', 'x:1', '--out', out],
        /goes with --sample-per-source/,
      ],
      [
        ['refine', source, '--mode', 'self', '--sample', 'random', '--out', out],
        /--sample takes paper or hashed/,
      ],
      [['refine', path.join(out, 'missing'), '--mode', 'self', '--out', out], /no manifest\.json/],
    ];
    // In process (the CLI's own entry), so eight refusals cost no eight Node start-ups.
    for (const [args, message] of cases) {
      const result = await inProcess(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const done = path.join(tempDir('apb-refine-opt-'), 'done');
    expect(
      (
        await cli([
          'refine',
          source,
          '--mode',
          'self',
          '--splits',
          'holistic_planning',
          '--limit',
          '1',
          '--out',
          done,
          '--no-cache',
        ])
      ).code,
    ).toBe(0);
    const other = await cli([
      'refine',
      source,
      '--mode',
      'self',
      '--no-metric',
      '--splits',
      'holistic_planning',
      '--limit',
      '1',
      '--out',
      done,
      '--no-cache',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds a run made with other settings[\s\S]*refinement/);
    // The refined directory is locked while written: a second writer is refused, naming the holder.
    const lock = acquireRunLock(done, 'refine');
    try {
      const locked = await cli([
        'refine',
        source,
        '--mode',
        'self',
        '--splits',
        'holistic_planning',
        '--limit',
        '1',
        '--out',
        done,
        '--no-cache',
      ]);
      expect(locked.code).toBe(2);
      expect(locked.stderr).toMatch(/is being written by apb refine \(pid \d+/);
    } finally {
      lock.release();
    }
    const nested = await cli(['refine', done, '--mode', 'self', '--out', path.join(done, 'again')]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/itself a refined run/);
  }, 60_000);
});
