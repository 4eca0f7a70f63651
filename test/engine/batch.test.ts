/**
 * `apb run --batch` through the real CLI against the loopback fake of each vendor's batch protocol
 * (test/fake-server/batch-server.ts): every case judged through batches, every batch id in the run
 * directory, and after a SIGKILL while a batch is in progress the re-run submits no request twice.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeBatchServer,
  type BatchReply,
  type FakeBatchServer,
} from '../fake-server/batch-server.js';
import type { Wire } from '../fake-server/wire.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const KEY = 'sk-test-batch-0123456789';
const ENV = {
  OPENAI_API_KEY: KEY,
  ANTHROPIC_API_KEY: KEY,
  GOOGLE_GENERATIVE_AI_API_KEY: KEY,
  APB_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'apb-batch-cache-')),
};
const SELECTION = [
  '--data',
  'sample',
  '--splits',
  'holistic_planning,step_wise_tool_broken,holistic_unsolvable',
  '--limit',
  '3',
];
const CASES = 9;

/** Planner prompts get a small plan; judge prompts a verdict in the shape their rubric asks for. */
function respond({ parsed }: { parsed: { model: string | null; text: string } }): BatchReply {
  // `-mini`, not `mini`: "gemini" contains "mini", and the Gemini planner was answered as a judge.
  if (
    !parsed.model?.includes('judge') &&
    !/-mini\b/.test(parsed.model ?? '') &&
    !parsed.model?.includes('haiku') &&
    !parsed.model?.includes('lite')
  ) {
    return {
      text: JSON.stringify({
        plan: 'Search, then book.',
        tool_chain: [{ name: 'search', arguments: {} }],
      }),
    };
  }
  if (parsed.text.includes('"behavior": "replace"}'))
    return { text: JSON.stringify({ reasoning: 'It swaps the tool.', behavior: 'replace' }) };
  if (parsed.text.includes('"refused": true}'))
    return { text: JSON.stringify({ reasoning: 'It declines.', refused: false }) };
  return {
    text: JSON.stringify({
      reasoning: 'Mostly right.',
      errors: { E1: false, E2: false, E3: true, E4: false, E5: false, E6: false },
      is_correct: false,
      grade: 0.6,
    }),
  };
}

const VENDORS: { wire: Wire; planner: string; judge: string }[] = [
  { wire: 'openai', planner: 'openai:gpt-4o', judge: 'openai:gpt-4o-mini' },
  {
    wire: 'anthropic',
    planner: 'anthropic:claude-sonnet-4-5',
    judge: 'anthropic:claude-haiku-4-5',
  },
  { wire: 'gemini', planner: 'google:gemini-2.5-pro', judge: 'google:gemini-2.5-flash-lite' },
];

let fake: FakeBatchServer;
beforeAll(async () => {
  fake = await startFakeBatchServer({ pollsToEnd: 4, respond });
});
afterAll(() => fake.close());

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

/** Starts the CLI and kills it (SIGKILL) once the fake has seen its first batch polled. */
async function killWhileInProgress(args: string[], wire: Wire): Promise<void> {
  const before = fake.batches.length;
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...ENV },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  while (
    !fake.batches
      .slice(before)
      .some((batch) => batch.wire === wire && batch.polls >= 1 && !batch.ended)
  ) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`no batch in progress to kill (exit ${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

describe.each(VENDORS)('apb run --batch ($wire)', ({ wire, planner, judge }) => {
  it('judges every case through batches, records their ids, and resumes after a SIGKILL without a second batch', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-batch-')), 'run');
    const args = [
      'run',
      ...SELECTION,
      '--model',
      planner,
      '--base-url',
      fake.baseUrl(wire),
      '--judge',
      judge,
      '--judge-base-url',
      fake.baseUrl(wire),
      '--batch',
      '--batch-poll-ms',
      '40',
      '--out',
      out,
    ];
    const first = fake.batches.length;
    await killWhileInProgress(args, wire);
    const recorded = lines(path.join(out, 'batches.jsonl'));
    expect(recorded.filter((event) => event.event === 'created').map((event) => event.id)).toEqual([
      fake.batches[first]!.id,
    ]);
    const result = await runCli(args, { env: ENV, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/batch .* submitted/);
    // One planner batch (submitted before the kill, resumed after it) and one judge batch; no request twice.
    const mine = fake.batches.slice(first);
    expect(mine.map((batch) => batch.items.length)).toEqual([CASES, CASES]);
    expect(fake.resubmitted(wire, first)).toEqual([]);
    const ids = lines(path.join(out, 'batches.jsonl'))
      .filter((event) => event.event === 'created')
      .map((event) => event.id);
    expect(ids).toEqual(mine.map((batch) => batch.id));
    const judgements = lines(path.join(out, 'judgements.jsonl'));
    expect(judgements).toHaveLength(CASES);
    expect(
      judgements.every(
        (line) =>
          line.apb.status === 'ok' &&
          line.apb.batch_ids?.[0] === mine[1]!.id &&
          line.apb.prediction.batch_id === mine[0]!.id,
      ),
    ).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.status).toBe('complete');
    expect(manifest.usage.planner.calls).toBe(CASES);
    expect(JSON.stringify(lines(path.join(out, 'judgements.jsonl')))).not.toContain(KEY);
  }, 180_000);
});

describe.each(VENDORS)(
  'apb run --batch ($wire), killed while its batch is being created',
  ({ wire, planner }) => {
    it('finds the batch the vendor made but the run never recorded, and submits nothing twice', async () => {
      const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-batch-')), 'run');
      // --no-cache: the cache of the tests above would answer these planner calls without any batch.
      const args = [
        'run',
        ...SELECTION,
        '--model',
        planner,
        '--base-url',
        fake.baseUrl(wire),
        '--judge',
        'rules',
        '--batch',
        '--batch-poll-ms',
        '40',
        '--no-cache',
        '--out',
        out,
      ];
      const first = fake.batches.length;
      fake.configure({ createDelayMs: 60_000 });
      try {
        const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'apb.js'), ...args], {
          cwd: REPO_ROOT,
          env: { ...process.env, ...ENV },
          stdio: 'ignore',
        });
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const deadline = Date.now() + 60_000;
        while (fake.batches.length === first && Date.now() < deadline && child.exitCode === null)
          await new Promise((resolve) => setTimeout(resolve, 10));
        child.kill('SIGKILL');
        await exited;
        expect(fake.batches.length, 'the vendor made the batch before the kill').toBe(first + 1);
      } finally {
        fake.configure({ createDelayMs: 0 });
      }
      const events = lines(path.join(out, 'batches.jsonl'));
      expect(events.map((event) => event.event)).toEqual(['intent']);
      const result = await runCli(args, { env: ENV, timeoutMs: 120_000 });
      expect(result.code, result.stderr).toBe(0);
      expect(fake.batches.slice(first)).toHaveLength(1);
      expect(fake.resubmitted(wire, first)).toEqual([]);
      expect(
        lines(path.join(out, 'batches.jsonl')).find((event) => event.event === 'created')?.id,
      ).toBe(fake.batches[first]!.id);
      expect(lines(path.join(out, 'judgements.jsonl'))).toHaveLength(CASES);
    }, 180_000);
  },
);

describe('apb run --batch: failures and estimates', () => {
  it('puts failed items into a new batch, and a request that keeps failing becomes an error outcome', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-batch-')), 'run');
    const failures = new Map<string, number>();
    let flaky: string | null = null;
    let broken: string | null = null;
    fake.configure({
      pollsToEnd: 1,
      respond: (item) => {
        const planner = !item.parsed.model?.includes('mini');
        if (planner && flaky === null) flaky = item.customId;
        else if (planner && broken === null && item.customId !== flaky) broken = item.customId;
        const seen = (failures.get(item.customId) ?? 0) + 1;
        failures.set(item.customId, seen);
        if (item.customId === flaky && seen === 1)
          return { error: 'server overloaded', retryable: true };
        if (item.customId === broken) return { error: 'invalid request', retryable: false };
        return respond(item);
      },
    });
    const first = fake.batches.length;
    const result = await runCli(
      [
        'run',
        ...SELECTION,
        '--model',
        'openai:gpt-4o',
        '--base-url',
        fake.baseUrl('openai'),
        '--judge',
        'rules',
        '--batch',
        '--batch-poll-ms',
        '20',
        '--out',
        out,
        '--no-cache',
      ],
      { env: ENV, timeoutMs: 120_000 },
    );
    fake.configure({ pollsToEnd: 4, respond });
    expect(result.code, result.stderr).toBe(0);
    // The planner batch, then a new batch with the one retryable failure; the invalid request is not sent again.
    expect(fake.batches.slice(first).map((batch) => batch.items.length)).toEqual([CASES, 1]);
    const predictions = lines(path.join(out, 'predictions.jsonl'));
    expect(predictions).toHaveLength(CASES);
    expect(
      predictions
        .filter((line) => line.apb.status === 'error')
        .map((line) => line.apb.error.message),
    ).toEqual([
      expect.stringContaining('batch item failed: 400: invalid request (after 1 batch attempt(s))'),
    ]);
    expect(predictions.filter((line) => line.apb.attempts === 2)).toHaveLength(1);
  }, 120_000);

  it('--dry-run --batch estimates at batch prices', async () => {
    const dry = async (...extra: string[]) => {
      const result = await runCli(
        [
          'run',
          ...SELECTION,
          '--model',
          'anthropic:claude-sonnet-4-5',
          '--judge',
          'openai:gpt-4o',
          '--dry-run',
          ...extra,
        ],
        { env: ENV },
      );
      expect(result.code, result.stderr).toBe(0);
      return {
        cost: Number(/^total\s.*\s([\d.]+)\s*$/m.exec(result.stdout)?.[1]),
        text: result.stdout,
      };
    };
    const interactive = await dry();
    const batched = await dry('--batch');
    expect(batched.cost).toBeGreaterThan(0);
    expect(batched.cost / interactive.cost).toBeCloseTo(0.5, 2);
    expect(batched.text).toContain('(batch price)');
  }, 60_000);
});

describe('apb run --batch --quiet', () => {
  it('prints no progress line (no batch submitted, status or pass line), and still judges every case', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'apb-batch-')), 'run');
    const result = await runCli(
      [
        'run',
        ...SELECTION,
        ...['--model', 'openai:gpt-4o', '--base-url', fake.baseUrl('openai')],
        ...['--judge', 'openai:gpt-4o-mini', '--judge-base-url', fake.baseUrl('openai')],
        ...['--batch', '--batch-poll-ms', '40', '--quiet', '--out', out],
      ],
      { env: ENV, timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(lines(path.join(out, 'judgements.jsonl'))).toHaveLength(CASES);
  }, 180_000);
});
