/**
 * Several models in one `apb run` (CONTRACT.md "Several models, shards, batches"): one run
 * directory per model under --out, each equal to its single-model run and resumable, a leaderboard
 * beside them; the same from a YAML or JSON config file; one limiter per endpoint shared by every
 * model (counted at a loopback server); bad config files named FILE:LINE: field: message.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readJsonl, tempDir, useScriptedServer } from '../engine/helpers.js';

const fake = useScriptedServer();
const read = (file: string) => readFileSync(file, 'utf8');
const sorted = (file: string) => read(file).split('\n').filter(Boolean).sort();
const BASELINES = ['baseline:oracle', 'baseline:heuristic'];
const dirOf = (spec: string) => spec.replace(':', '-');

/** The files of a run that must not depend on how it was started (the manifest differs only in its times). */
function expectSameRun(a: string, b: string): void {
  expect(sorted(path.join(a, 'judgements.jsonl'))).toEqual(
    sorted(path.join(b, 'judgements.jsonl')),
  );
  expect(sorted(path.join(a, 'predictions.jsonl'))).toEqual(
    sorted(path.join(b, 'predictions.jsonl')),
  );
  expect(JSON.parse(read(path.join(a, 'scores.json')))).toEqual(
    JSON.parse(read(path.join(b, 'scores.json'))),
  );
  const manifest = (dir: string) => {
    const { created_at, updated_at, finished_at, progress, ...rest } = JSON.parse(
      read(path.join(dir, 'manifest.json')),
    );
    return [
      rest,
      typeof created_at,
      typeof updated_at,
      typeof finished_at,
      { ...progress, started_at: typeof progress.started_at },
    ];
  };
  expect(manifest(a)).toEqual(manifest(b));
}

describe('apb run with several models', () => {
  it('writes one run per model equal to its single-model run, a leaderboard, and resumes each', async () => {
    const work = tempDir('apb-leaderboard-');
    const board = path.join(work, 'board');
    const result = await cli([
      'run',
      ...BASELINES.flatMap((spec) => ['--model', spec]),
      '--out',
      board,
    ]);
    expect(result.code, result.stderr).toBe(0);
    for (const spec of BASELINES) {
      const single = path.join(work, `single-${dirOf(spec)}`);
      expect((await cli(['run', '--model', spec, '--out', single])).code).toBe(0);
      expectSameRun(path.join(board, dirOf(spec)), single);
    }
    const markdown = read(path.join(board, 'leaderboard.md'));
    for (const spec of BASELINES) expect(markdown).toContain(`| ${spec} (baseline, not a model) |`);
    expect(read(path.join(board, 'leaderboard.html'))).toContain('baseline:heuristic');
    const again = await cli([
      'run',
      ...BASELINES.flatMap((spec) => ['--model', spec]),
      '--out',
      board,
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr.match(/69 already finished, resuming/g)).toHaveLength(2);
    expect(sorted(path.join(board, 'baseline-oracle', 'judgements.jsonl'))).toHaveLength(69);
  });

  it('gives the same runs from a YAML or a JSON config file (paths relative to the file)', async () => {
    const work = tempDir('apb-config-');
    const flags = path.join(work, 'flags');
    expect(
      (
        await cli([
          'run',
          ...BASELINES.flatMap((spec) => ['--model', spec]),
          '--splits',
          'holistic',
          '--limit',
          '3',
          '--out',
          flags,
        ])
      ).code,
    ).toBe(0);
    writeFileSync(
      path.join(work, 'board.yaml'),
      [
        '# two baselines',
        'data: sample',
        'splits: [holistic_planning, holistic_tool_extraneous, holistic_unsolvable, holistic_efficiency]',
        'limit: 3',
        'out: yaml',
        'models:',
        '  - baseline:oracle',
        '  - model: baseline:heuristic',
        'judges: [rules]',
        'engine: {concurrency: 4}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(work, 'board.json'),
      JSON.stringify({ splits: 'holistic', limit: 3, out: 'json', models: BASELINES }),
    );
    for (const [file, out] of [
      ['board.yaml', 'yaml'],
      ['board.json', 'json'],
    ]) {
      const result = await cli(['run', '--config', path.join(work, file!)]);
      expect(result.code, result.stderr).toBe(0);
      for (const spec of BASELINES)
        expectSameRun(path.join(work, out!, dirOf(spec)), path.join(flags, dirOf(spec)));
      expect(existsSync(path.join(work, out!, 'leaderboard.md'))).toBe(true);
    }
    // A flag given as well wins over the file.
    const override = await cli([
      'run',
      '--config',
      path.join(work, 'board.json'),
      '--model',
      'baseline:refuse',
      '--out',
      path.join(work, 'override'),
    ]);
    expect(override.code).toBe(0);
    expect(
      readJsonl(path.join(work, 'override', 'judgements.jsonl')).every(
        (line) => line.tested_model === 'baseline:refuse',
      ),
    ).toBe(true);
  });

  it('reports every problem of a config file as FILE:LINE: field: message, exit 2, nothing written', async () => {
    const work = tempDir('apb-config-bad-');
    const file = path.join(work, 'bad.yaml');
    writeFileSync(
      file,
      [
        'data: sample',
        'modles:',
        '  - baseline:oracle',
        'models:',
        '  - gpt4',
        '  - {model: openai:gpt-4o, temprature: 1}',
        'judges: [rule]',
        'engine:',
        '  max_cost: -1',
        'out: run',
        '',
      ].join('\n'),
    );
    const result = await cli(['run', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:2: modles: unknown key (did you mean "models"?)`);
    expect(result.stderr).toContain(
      `${file}:5: models[0]: expected PROVIDER:MODEL or baseline:NAME`,
    );
    expect(result.stderr).toContain(
      `${file}:6: models[1].temprature: unknown key (did you mean "temperature"?)`,
    );
    expect(result.stderr).toContain(
      `${file}:7: judges[0]: expected rules or PROVIDER:MODEL (did you mean "rules"?)`,
    );
    expect(result.stderr).toMatch(
      new RegExp(`${file.replace(/[.]/g, '\\.')}:9: engine\\.max_cost: .*>0`),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(work, 'run'))).toBe(false);
    writeFileSync(file, 'models: [a\n');
    const broken = await cli(['run', '--config', file]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(new RegExp(`bad\\.yaml:1: \\(file\\): not valid YAML`));
    const missing = await cli(['run', '--config', path.join(work, 'none.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.yaml: cannot read the file (ENOENT)');
  });

  it('refuses a model given twice and one --base-url over models of several providers', async () => {
    const twice = await cli(['run', '--model', 'baseline:oracle', '--model', 'baseline:oracle']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('model baseline:oracle is given twice');
    const mixed = await cli(
      [
        'run',
        '--model',
        'openai:gpt-4o',
        '--model',
        'openai-compatible:local',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ],
      { OPENAI_API_KEY: 'sk-x' },
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('give each model its own base URL in a --config file');
  });

  it('shares one limiter per endpoint between the models: two models at --concurrency 2 never have more than 2 requests in flight', async () => {
    // beta answers slower, so alpha's run ends while beta's requests still go on.
    fake.server.configure({
      latencyMs: 40,
      respond: (request) => {
        const reply = fake.script.respond(request);
        return request.parsed?.model === 'beta' ? { ...reply, delayMs: 150 } : reply;
      },
    });
    const out = path.join(tempDir('apb-pool-'), 'board');
    const models = ['openai-compatible:alpha', 'openai-compatible:beta'];
    const result = await cli([
      'run',
      ...models.flatMap((spec) => ['--model', spec]),
      '--base-url',
      fake.server.baseUrl('openai'),
      '--splits',
      'holistic',
      '--limit',
      '4',
      '--concurrency',
      '2',
      '--no-cache',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(fake.server.maxInFlight).toBe(2);
    const seen = new Set(fake.server.requests.map((request) => request.parsed?.model));
    expect(seen).toEqual(new Set(['alpha', 'beta']));
    for (const spec of models)
      expect(readJsonl(path.join(out, dirOf(spec), 'judgements.jsonl'))).toHaveLength(
        fake.server.count() / 2,
      );
    // Each manifest, and so the leaderboard's Endpoints table, holds the shared pool's final counts,
    // not the snapshot a run took when it ended (the first to finish saw fewer requests).
    for (const spec of models) {
      const manifest = JSON.parse(read(path.join(out, dirOf(spec), 'manifest.json'))) as {
        endpoints: { requests: number }[];
      };
      expect(manifest.endpoints.reduce((sum, entry) => sum + entry.requests, 0)).toBe(
        fake.server.count(),
      );
    }
    expect(read(path.join(out, 'leaderboard.md'))).toMatch(
      new RegExp(`\\| ${fake.server.count()} \\|`),
    );
  });
});
