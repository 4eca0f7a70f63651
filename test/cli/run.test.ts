/** `apb run` through the real CLI: the main job offline, resume, refusal of mismatched settings, bad input. */
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { holisticRecord, writeDataset } from '../helpers/dataset.js';

const RUN_FILES = [
  'manifest.json',
  'predictions.jsonl',
  'judgements.jsonl',
  'scores.json',
  'report.md',
  'report.html',
];
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'apb-run-'));

describe('apb run', () => {
  it('runs the built-in sample offline with the defaults and writes every contract file', async () => {
    const out = path.join(tempDir(), 'run');
    const result = await runCli(['run', '--out', out], {
      env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    });
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(result.code).toBe(0);
    for (const file of RUN_FILES) expect(existsSync(path.join(out, file)), file).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      status: 'complete',
      identity: { tested_model: 'baseline:heuristic', judges: ['rules'] },
    });
    expect(lines(path.join(out, 'judgements.jsonl'))).toHaveLength(manifest.counts.cases);
    const judgement = JSON.parse(lines(path.join(out, 'judgements.jsonl'))[0]!);
    expect(Object.keys(judgement)).toEqual(
      expect.arrayContaining([
        'id',
        'split',
        'query',
        'tools_json',
        'tested_model',
        'model_response',
        'judge_model',
        'judgement',
        'apb',
      ]),
    );
    expect(Object.keys(judgement.judgement)).toEqual(
      expect.arrayContaining(['is_correct', 'grade', 'error_list', 'reasoning']),
    );
  });

  it('resumes into an existing directory without redoing finished cases, and refuses other settings', async () => {
    const out = path.join(tempDir(), 'run');
    expect(
      (
        await runCli([
          'run',
          '--model',
          'baseline:oracle',
          '--splits',
          'holistic',
          '--limit',
          '2',
          '--out',
          out,
        ])
      ).code,
    ).toBe(0);
    const before = lines(path.join(out, 'predictions.jsonl'));
    // A crash left half a line behind: it is dropped, and the finished cases are not run again.
    appendFileSync(path.join(out, 'judgements.jsonl'), '{"id": "torn');
    const again = await runCli([
      'run',
      '--model',
      'baseline:oracle',
      '--splits',
      'holistic',
      '--limit',
      '3',
      '--out',
      out,
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('dropped 1 half-written line');
    const after = lines(path.join(out, 'predictions.jsonl'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 4);
    const ids = lines(path.join(out, 'judgements.jsonl')).map((line) => JSON.parse(line).id);
    expect(new Set(ids).size).toBe(ids.length);
    const mismatch = await runCli([
      'run',
      '--model',
      'baseline:refuse',
      '--splits',
      'holistic',
      '--out',
      out,
    ]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('tested_model: "baseline:oracle" → "baseline:refuse"');
  });

  it('refuses invalid input with FILE:LINE: field: message, exit 2 and no stack trace; --skip-invalid counts and skips', async () => {
    const data = writeDataset({
      holistic_planning: [
        JSON.stringify(holisticRecord()),
        '{"id": 1,',
        JSON.stringify(holisticRecord({ id: 'hp-3', prediction_horizon: 7 })),
      ],
    });
    const out = path.join(tempDir(), 'run');
    const refused = await runCli(['run', '--data', data, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/holistic_planning\.jsonl:2: \(line\): invalid JSON/);
    expect(refused.stderr).toMatch(
      /holistic_planning\.jsonl:3: prediction_horizon: must be 1, 2 or 3 \(got 7\)/,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(out, 'predictions.jsonl'))).toBe(false);
    const skipped = await runCli(['run', '--data', data, '--out', out, '--skip-invalid']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('2 invalid record(s) skipped');
    expect(lines(path.join(out, 'judgements.jsonl'))).toHaveLength(1);
  });

  it('rejects bad arguments with exit 2', async () => {
    for (const args of [
      ['run', '--limit', 'zero'],
      ['run', '--splits', 'holistic_plans'],
      ['run', '--model', 'baseline:genius'],
      ['run', '--data', '/nonexistent'],
      ['run', '--shard', '3/2'],
      ['nonsense'],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('apb data validate', () => {
  it('prints every problem and exits 1, or exits 0 on the sample', async () => {
    const data = writeDataset({
      holistic_planning: [
        'not json',
        JSON.stringify(holisticRecord({ files: [{ path: '../x.png' }] })),
      ],
    });
    const bad = await runCli(['data', 'validate', data]);
    expect(bad.code).toBe(1);
    expect(bad.stdout.trim().split('\n')).toHaveLength(2);
    expect(bad.stdout).toMatch(
      /holistic_planning\.jsonl:2: files\[0\]\.path: path "\.\.\/x\.png" escapes the dataset root/,
    );
    const good = await runCli(['data', 'validate', 'sample']);
    expect(good.code).toBe(0);
    expect(good.stderr).toMatch(/69 valid case\(s\)/);
  });
});
