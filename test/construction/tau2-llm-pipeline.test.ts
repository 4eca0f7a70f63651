/**
 * Issue 25's acceptance through the real CLI: the shipped model pipeline
 * (`data/construction/tau2-pipeline-llm.json`: import, B.1 augment to 12.5 steps, check, holistic, cuts,
 * extraneous, broken, unsolvable, efficiency) on tau2-bench's raw tasks, with the scripted
 * construction model behind a loopback HTTP server as `--llm`. `apb data stats` shows the release's
 * shape, the dataset validates, and baseline:oracle scores 100 %. The test split keeps it short;
 * APB_TAU2_FULL=1 builds from every task (the figures of docs/construction.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetStats, type DatasetStats } from '../../src/dataset/stats.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { constructionReply } from './construct-replies.js';

const root = mkdtempSync(path.join(tmpdir(), 'apb-construct-tau2-llm-'));
const shipped = path.join(REPO_ROOT, 'data', 'construction', 'tau2-pipeline-llm.json');
const config = path.join(root, 'pipeline.json');
const full = process.env.APB_TAU2_FULL === '1';
const spec = JSON.parse(readFileSync(shipped, 'utf8')) as {
  steps: Array<Record<string, unknown>>;
};
for (const step of spec.steps) {
  if (step.step === 'import' && !full) step.task_split = 'test';
  if (step.step === 'extraneous')
    step.pool = (step.pool as string[]).map((file) => path.resolve(path.dirname(shipped), file));
}
writeFileSync(config, JSON.stringify(spec));
const out = path.join(root, 'built');
let server: FakeServer;
let stats: DatasetStats;
const jsonl = (file: string) =>
  readFileSync(path.join(out, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const split = (name: string) => stats.splits.find((entry) => entry.split === name)!;

beforeAll(async () => {
  server = await startFakeServer({ respond: constructionReply });
  const result = await runCli(
    [
      'construct',
      'pipeline',
      '--config',
      config,
      '--out',
      out,
      '--llm',
      'openai-compatible:fake-constructor',
      '--llm-base-url',
      server.baseUrl('openai'),
      '--concurrency',
      '8',
    ],
    {
      env: { APB_CACHE_DIR: path.join(root, 'cache'), OPENAI_API_KEY: 'sk-fake-construct' },
      timeoutMs: 600_000,
    },
  );
  expect(result.code, result.stderr).toBe(0);
  stats = await datasetStats(out);
}, 620_000);
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('apb construct pipeline on tau2-bench with --llm (scripted fake over HTTP)', () => {
  it('augments every task by B.1 (+5.6 tools on average) to the release’s 12.5 steps per holistic case', () => {
    const augmented = jsonl('steps/02-augment/meta/sources.jsonl').map(
      (line) =>
        line.generated as { augmented: boolean; added_steps: number; added_tools: string[] },
    );
    expect(augmented.every((item) => item.augmented)).toBe(true);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const tools = mean(augmented.map((item) => item.added_tools.length));
    expect(tools).toBeGreaterThan(5.3);
    expect(tools).toBeLessThan(5.9);
    const steps = split('holistic_planning').avg_steps!;
    expect(steps).toBeGreaterThan(11.5);
    expect(steps).toBeLessThan(13.5);
    console.info(
      `[tau2-llm] added steps ${mean(augmented.map((item) => item.added_steps)).toFixed(2)}, tools ${tools.toFixed(2)}; ${JSON.stringify(stats.splits.map((s) => [s.split, s.cases, s.parents, s.avg_steps, s.avg_tools]))}`,
    );
  });

  it('has the release shape: a third per horizon, 150 + 150 extraneous parents at five nested levels, four unsolvable types, broken tools that worked earlier', () => {
    const stepWise = split('step_wise_planning');
    for (const count of Object.values(stepWise.horizons)) {
      expect(count / stepWise.cases).toBeGreaterThanOrEqual(0.3);
      expect(count / stepWise.cases).toBeLessThanOrEqual(0.37);
    }
    for (const name of ['holistic_tool_extraneous', 'step_wise_tool_extraneous']) {
      const extraneous = split(name);
      expect(extraneous.parents, name).toBeLessThanOrEqual(150);
      if (full) expect(extraneous.parents, name).toBe(150);
      expect(Object.keys(extraneous.levels), name).toEqual(['2', '4', '6', '8', '10']);
      expect(new Set(Object.values(extraneous.levels)), name).toEqual(
        new Set([extraneous.parents]),
      );
    }
    const unsolvable = split('holistic_unsolvable');
    expect(Object.keys(unsolvable.unsolvable_types).sort()).toEqual([
      'contradictory_constraints',
      'information_missing',
      'tool_removal',
      'visual_missing',
    ]);
    const broken = split('step_wise_tool_broken');
    expect(broken.cases).toBeGreaterThan(0);
    expect(broken.broken_tool_used_earlier).toBe(broken.cases);
    console.info(
      `[tau2-llm] horizons ${JSON.stringify(stepWise.horizons)} of ${stepWise.cases}; extraneous parents ${split('holistic_tool_extraneous').parents}/${split('step_wise_tool_extraneous').parents}; unsolvable ${JSON.stringify(unsolvable.unsolvable_types)}; broken ${broken.broken_tool_used_earlier}/${broken.cases}`,
    );
  });

  it('makes tool_removal mandate the removed tool and contradictory_constraints restrict a listed one', () => {
    const meta = new Map(
      jsonl('meta/holistic_unsolvable.jsonl').map((line) => [line.id as string, line.generated]),
    );
    for (const record of jsonl('data/holistic_unsolvable.jsonl')) {
      const generated = meta.get(record.id as string) as Record<string, string>;
      const tools = JSON.parse(record.tools_json as string) as Array<{
        name: string;
        description: string;
      }>;
      if (record.unsolvable_type === 'tool_removal') {
        expect(record.query).toContain(generated.removed_tool);
        expect(tools.map((tool) => tool.name)).not.toContain(generated.removed_tool);
      }
      if (record.unsolvable_type === 'contradictory_constraints')
        expect(tools.find((tool) => tool.name === generated.restricted_tool)!.description).toMatch(
          /Only handles requests made before 1 January 2020\.$/,
        );
    }
  });

  it('validates, and baseline:oracle scores 100 % on every split', async () => {
    const validate = await runCli(['data', 'validate', out], { timeoutMs: 120_000 });
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stderr).toMatch(/0 invalid record\(s\), 0 problem\(s\)/);
    const run = path.join(root, 'oracle');
    const result = await runCli(
      ['run', '--data', out, '--model', 'baseline:oracle', '--judge', 'rules', '--out', run],
      { timeoutMs: 300_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const groups = JSON.parse(readFileSync(path.join(run, 'scores.json'), 'utf8')).groups as Record<
      string,
      { records: number; accuracy: number }
    >;
    for (const [name, group] of Object.entries(groups)) expect(group.accuracy, name).toBe(1);
    console.info(
      `[tau2-llm] validate: ${validate.stderr.trim().split('\n').slice(-2).join(' | ')}`,
    );
  }, 320_000);
});
