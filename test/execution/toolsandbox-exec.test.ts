/**
 * `apb exec --env toolsandbox` through the real CLI: the three modes over real HTTP against a
 * scripted fake agent and user (toolsandbox-fake.ts), scored by the port of ToolSandbox's
 * evaluation; a rerun with the same clock gives the same executions.jsonl bytes but the times;
 * replays through the CLI score what ToolSandbox's Python gives the same conversation
 * (test/fixtures/toolsandbox/replays.json, exported by scripts/toolsandbox/export_replays.py,
 * Apple's licence in data/toolsandbox/LICENSE); `--clock` moves every timestamp, `--dump-state`
 * writes the final world.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runMain } from '../helpers/cli.js';
import { startFakeServer, type FakeServer } from '../fake-server/index.js';
import { respondAsToolSandboxModels } from './toolsandbox-fake.js';

const SCENARIOS = 'cellular_off,wifi_off,get_wifi';
const VARIANTS = 'base,3_distraction_tools_tool_name_scrambled';
const TIMES = new Set(['started_at', 'finished_at', 'latency_ms']);

type Line = Record<string, unknown> & { task_id: string; mode: string };
const tmp = (name: string) => mkdtempSync(path.join(tmpdir(), `apb-ts-${name}-`));
const readLines = (dir: string): Line[] =>
  readFileSync(path.join(dir, 'executions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
const withoutTimes = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutTimes)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).flatMap(([k, v]) => (TIMES.has(k) ? [] : [[k, withoutTimes(v)]])),
        )
      : value;

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer({ respond: respondAsToolSandboxModels });
});
afterAll(() => fake.close());

async function modelRun(out: string) {
  const args = ['exec', '--env', 'toolsandbox', '--scenarios', SCENARIOS, '--variants', VARIANTS];
  args.push('--mode', 'direct,plan-first,refine', '--model', 'openai-compatible:fake-agent');
  args.push('--base-url', fake.baseUrl('openai'), '--out', out, '--max-retries', '0');
  args.push('--concurrency', '1', '--compare-paper', '--quiet');
  return runCli(args, { env: { APB_CACHE_DIR: tmp('cache') }, timeoutMs: 120_000 });
}

describe('apb exec --env toolsandbox (model agent over HTTP)', () => {
  it('runs direct, plan-first and refine, fills the ToolSandbox rows and reruns byte-identically', async () => {
    const [a, b] = [tmp('a'), tmp('b')];
    const first = await modelRun(a);
    expect(first.code, first.stderr).toBe(0);
    const lines = readLines(a);
    expect(lines).toHaveLength(18);
    for (const line of lines) {
      expect(line).toMatchObject({ env: 'toolsandbox', termination: 'user_stop' });
      expect(line.stop_signal).toBe('end_conversation');
      expect(line.reward).toBe(line.similarity);
      expect(line.minefield_hit).toBe(false);
      expect(typeof line.turns).toBe('number');
    }
    const of = (id: string, mode: string) =>
      lines.find((line) => line.task_id === id && line.mode === mode)!;
    // The right switch: the first milestone (the setting) is met; the agent's closing words are
    // scored by ROUGE-L.
    expect((of('cellular_off', 'direct').milestone_similarities as number[])[0]).toBe(1);
    expect(of('cellular_off', 'direct').similarity).toBeGreaterThan(0.5);
    // Scrambled names: only the refined plan's agent finds the switch by its description.
    const scrambled = 'cellular_off_3_distraction_tools_tool_name_scrambled';
    expect(of(scrambled, 'direct').similarity).toBe(0);
    expect(of(scrambled, 'refine').similarity).toBeGreaterThan(0.5);
    const manifest = JSON.parse(readFileSync(path.join(a, 'exec-manifest.json'), 'utf8'));
    expect(manifest.identity.clock).toBe('2024-09-02T12:00:00.000Z');
    const scores = JSON.parse(readFileSync(path.join(a, 'exec-scores.json'), 'utf8'));
    const [row] = scores.tables.toolsandbox;
    expect(row).toMatchObject({ env: 'toolsandbox', n: 6, trials: 1 });
    expect(row.refine_pct).toBeGreaterThan(row.direct_pct);
    expect(readFileSync(path.join(a, 'report.md'), 'utf8')).toContain('## Table 3: ToolSandbox');
    // The floor first: ToolSandbox's own do-nothing agent (UnhelpfulAgent) on the same six
    // scenarios, scored as its Python scores them (test/fixtures/toolsandbox/unhelpful.json).
    const unhelpful = JSON.parse(
      readFileSync(new URL('../fixtures/toolsandbox/unhelpful.json', import.meta.url), 'utf8'),
    ).results as Record<string, { similarity: number }>;
    const ids = [...new Set(lines.map((line) => line.task_id))];
    const floorMean = ids.reduce((sum, id) => sum + unhelpful[id]!.similarity, 0) / ids.length;
    const [floor] = scores.tables.table3;
    expect(floor).toMatchObject({ env: 'toolsandbox', model: 'do-nothing', floor: true, n: 6 });
    expect(floor.metric).toBe('similarity');
    expect(floor.direct).toBeCloseTo(floorMean, 6);
    // No request carries what only the evaluator may see: milestone tool traces or similarity
    // measures.
    const bodies = fake.requests.map((request) => request.rawBody);
    expect(bodies.filter((body) => /tool_name|snapshot_constraint|milestone/.test(body))).toEqual(
      [],
    );
    const second = await modelRun(b);
    expect(second.code, second.stderr).toBe(0);
    const text = (dir: string) => readLines(dir).map((line) => JSON.stringify(withoutTimes(line)));
    expect(text(b)).toEqual(text(a));
  });
});

interface Fixture {
  replay: { scenario: string };
  similarity: number;
  minefield_similarity: number;
}

describe('apb exec --env toolsandbox --agent replay:FILE', () => {
  const { results } = JSON.parse(
    readFileSync(new URL('../fixtures/toolsandbox/replays.json', import.meta.url), 'utf8'),
  ) as { results: Fixture[] };
  const unique = [...new Map(results.map((r) => [r.replay.scenario, r])).values()];

  it("scores each script as ToolSandbox's Python does (a minefield hit gives 0)", async () => {
    const dir = tmp('replay');
    const file = path.join(dir, 'replays.jsonl');
    writeFileSync(file, unique.map((r) => `${JSON.stringify(r.replay)}\n`).join(''));
    const out = path.join(dir, 'out');
    const run = await runCli(
      ['exec', '--env', 'toolsandbox', '--subset', 'all', '--agent', `replay:${file}`],
      { timeoutMs: 60_000 },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--out');
    const ok = await runCli([
      'exec',
      '--env',
      'toolsandbox',
      '--subset',
      'all',
      '--agent',
      `replay:${file}`,
      '--out',
      out,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const lines = new Map(readLines(out).map((line) => [line.task_id, line]));
    expect(lines.size).toBe(unique.length);
    for (const want of unique) {
      const line = lines.get(want.replay.scenario)!;
      expect(line.similarity as number).toBeCloseTo(want.similarity, 6);
      expect(line.minefield_hit).toBe(want.minefield_similarity > 0);
      expect(line.mode).toBe('replay');
    }
  });

  it('--clock moves the world and its timestamps by the same amount; --dump-state writes it', async () => {
    const dir = tmp('clock');
    const file = path.join(dir, 'replays.jsonl');
    const scenario = 'search_message_with_recency_latest';
    writeFileSync(file, `${JSON.stringify({ scenario, turns: [] })}\n`);
    const dump = async (clock: string | null) => {
      const at = path.join(dir, clock ?? 'default');
      const args = ['exec', '--env', 'toolsandbox', '--scenarios', scenario, '--variants', 'base'];
      args.push('--agent', `replay:${file}`, '--out', at, '--dump-state', path.join(at, 'state'));
      const run = await runCli(clock ? [...args, '--clock', clock] : args);
      expect(run.code, run.stderr).toBe(0);
      const state = JSON.parse(readFileSync(path.join(at, 'state', `${scenario}.json`), 'utf8'));
      return state.databases.messaging as Array<{ creation_timestamp: number }>;
    };
    const before = await dump(null);
    const after = await dump('2024-09-03T12:00:00Z');
    expect(before.length).toBeGreaterThan(0);
    expect(after.map((row) => row.creation_timestamp - 86_400)).toEqual(
      before.map((row) => row.creation_timestamp),
    );
    const bad = await runCli(['exec', '--env', 'toolsandbox', '--clock', 'tomorrow']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--clock must be an ISO 8601 instant');
  });
});

describe('apb exec --env toolsandbox --dry-run', () => {
  it("counts no opening user message (the scenario fixes it) and the scenario's own tools", async () => {
    const args = ['exec', '--env', 'toolsandbox', '--scenarios', 'cellular_off'];
    args.push('--variants', 'base,all_tools', '--mode', 'direct,plan-first', '--dry-run');
    args.push('--model', 'openai:gpt-4o');
    const result = await runMain(args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '2 task(s) × 1 trial(s) × 2 mode(s) = 4 conversation(s) with openai:gpt-4o, plus 0 opening user message(s); 2 draft plan(s)',
    );
    const tokens = Number(/at least (\d+) input tokens/.exec(result.stdout)![1]);
    const alone = await runMain([...args.slice(0, 6), 'base', ...args.slice(7)]);
    // the base variant alone offers fewer tools than all_tools: its floor is the fewest of the two
    expect(Number(/at least (\d+) input tokens/.exec(alone.stdout)![1])).toBe(tokens);
  });
});
