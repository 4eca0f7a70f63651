/**
 * Issue 24's attacks on the batch path, each against the loopback fake of the vendors' batch APIs
 * (test/fake-server/batch-server.ts) turned hostile or failing: the real batcher, the real vendor
 * SDKs and the real provider stack, in process. Each failed before its fix.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import {
  Batcher,
  BatchDeferredError,
  type BatcherOptions,
} from '../../src/providers/batch/batcher.js';
import type { BatchEventInfo } from '../../src/providers/batch/batcher.js';
import { estimateRequestTokens } from '../../src/providers/estimate.js';
import type { ProviderRequest } from '../../src/providers/provider.js';
import { buildProviderStack } from '../../src/providers/registry.js';
import {
  startFakeBatchServer,
  type FakeBatch,
  type FakeBatchServer,
} from '../fake-server/batch-server.js';
import type { Wire } from '../fake-server/wire.js';

const KEY = 'sk-test-batch-attacks-0123456789';
const ENV = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GOOGLE_GENERATIVE_AI_API_KEY: KEY };
const SPECS: Record<Wire, string> = {
  openai: 'openai:gpt-4o',
  anthropic: 'anthropic:claude-sonnet-4-5',
  gemini: 'google:gemini-2.5-pro',
};
const HOURS_2 = 2 * 60 * 60 * 1000;

let fake: FakeBatchServer;
beforeAll(async () => {
  fake = await startFakeBatchServer({ pollsToEnd: 1 });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.configure({
    pollsToEnd: 1,
    dropCreates: 0,
    clockOffsetMs: 0,
    createDelayMs: 0,
    view: undefined,
    resultsBody: undefined,
  });
});

const request = (text: string): ProviderRequest => ({
  messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
  promptVersion: 'attack@1',
  json: false,
  sampling: {},
  repeat: 0,
  role: 'planner',
});

type Outcome = { ok: true; text: string } | { ok: false; deferred: boolean; message: string };

/** A run directory, a batcher over it and the provider stack of one model through it. */
async function open(wire: Wire, options: BatcherOptions = {}, dir?: string) {
  const runDir = dir ?? path.join(mkdtempSync(path.join(tmpdir(), 'apb-batch-attack-')), 'run');
  mkdirSync(runDir, { recursive: true });
  const events: BatchEventInfo[] = [];
  const batcher = await Batcher.open(runDir, {
    pollMs: 5,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const provider = buildProviderStack(SPECS[wire], {
    baseUrl: fake.baseUrl(wire),
    env: ENV,
    batch: batcher,
  });
  const ask = async (text: string): Promise<Outcome> =>
    provider.generate(request(text)).then(
      (result) => ({ ok: true as const, text: result.text }),
      (error: Error) => ({
        ok: false as const,
        deferred: error instanceof BatchDeferredError,
        message: error.message,
      }),
    );
  return { runDir, batcher, events, ask };
}

/** Asks every prompt, submits and waits, up to `passes` times (as `runWithBatches` does); the last answers. */
async function drive(
  wire: Wire,
  prompts: string[],
  options: BatcherOptions = {},
  passes = 4,
): Promise<Awaited<ReturnType<typeof open>> & { outcomes: Outcome[] }> {
  const opened = await open(wire, options);
  await opened.batcher.recover();
  let outcomes: Outcome[] = [];
  for (let pass = 0; pass < passes; pass += 1) {
    opened.batcher.startPass();
    outcomes = await Promise.all(prompts.map(opened.ask));
    await opened.batcher.flush();
    const pending = opened.batcher.pending;
    if (pending.deferred === 0 && pending.outstanding === 0) break;
    await opened.batcher.waitAll();
  }
  return { ...opened, outcomes };
}

const prompts = (n: number, tag: string) =>
  Array.from({ length: n }, (_, index) => `${tag} case ${index}`);

const mine = (from: number, wire: Wire) =>
  fake.batches.slice(from).filter((batch) => batch.wire === wire);

describe('batch ids are never paths', () => {
  it('an output file id of ../../… writes, removes and reads nothing outside the run directory; the cases get a one-line error', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'apb-batch-traversal-'));
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    const planted = path.join(outside, 'PWNED.jsonl');
    writeFileSync(planted, 'precious\n');
    fake.configure({
      view: (record) =>
        record.output_file_id ? { ...record, output_file_id: `../../../../outside/PWNED` } : record,
    });
    const { outcomes, runDir } = await driveIn(
      path.join(root, 'run'),
      'openai',
      prompts(3, 'traversal'),
    );
    expect(readFileSync(planted, 'utf8')).toBe('precious\n');
    expect(readdirSync(outside)).toEqual(['PWNED.jsonl']);
    expect(outcomes.every((outcome) => !outcome.ok && !outcome.deferred)).toBe(true);
    expect(outcomes.map((outcome) => (outcome as { message: string }).message)).toEqual(
      Array(3).fill(expect.stringMatching(/output file id .* is not an id .*refused/)),
    );
    // Only apb's own files, named after its batch keys, are in the scratch folder.
    expect(
      readdirSync(path.join(runDir, 'batches')).every((name) => /^apb-[a-z0-9-]+\./.test(name)),
    ).toBe(true);
  }, 30_000);

  it('a batch id that is not an id (Anthropic, msgbatch_/../x) is refused at creation, naming it', async () => {
    fake.configure({ view: (record) => ({ ...record, id: 'msgbatch_/../../etc' }) });
    const { batcher, ask } = await open('anthropic');
    await ask('bad id case');
    await expect(batcher.flush()).rejects.toThrow(
      /batch id "msgbatch_\/\.\.\/\.\.\/etc" is not an id/,
    );
  });
});

/** `drive` in a given run directory. */
async function driveIn(runDir: string, wire: Wire, texts: string[]) {
  const opened = await open(wire, {}, runDir);
  opened.batcher.startPass();
  await Promise.all(texts.map(opened.ask));
  await opened.batcher.flush();
  await opened.batcher.waitAll();
  return { ...opened, outcomes: await Promise.all(texts.map(opened.ask)) };
}

describe.each(['openai', 'anthropic', 'gemini'] as const)(
  'one billed batch per intent (%s)',
  (wire) => {
    it('a creation whose reply is lost, from a vendor whose clock is 2 h behind, makes one batch, adopted', async () => {
      const from = fake.batches.length;
      fake.configure({ dropCreates: 1, clockOffsetMs: -HOURS_2 });
      const { outcomes } = await drive(wire, prompts(3, `dropped ${wire}`));
      expect(mine(from, wire)).toHaveLength(1);
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    }, 30_000);
  },
);

describe('a run killed between intent and creation', () => {
  it('finds its batch on the re-run though the vendor clock is 2 h behind (matched on its tag, not its time)', async () => {
    const from = fake.batches.length;
    fake.configure({ createDelayMs: 30_000, clockOffsetMs: -HOURS_2 });
    const first = await open('openai');
    await first.ask('killed case');
    const cut = first.batcher.flush().catch(() => {});
    while (mine(from, 'openai').length === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    // The first process is gone as far as the run directory knows: only its intent is on disk.
    const events = readFileSync(path.join(first.runDir, 'batches.jsonl'), 'utf8');
    expect(
      events
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).event),
    ).toEqual(['intent']);
    fake.configure({ createDelayMs: 0 });
    const second = await open('openai', {}, first.runDir);
    await second.batcher.recover();
    second.batcher.startPass();
    expect((await second.ask('killed case')).ok).toBe(false);
    await second.batcher.flush();
    await second.batcher.waitAll();
    expect(await second.ask('killed case')).toEqual({ ok: true, text: 'ok' });
    expect(mine(from, 'openai')).toHaveLength(1);
    void cut;
  }, 30_000);
});

/** A results file whose lines `edit` may replace (by index), in the wire's format. */
function editedResults(edit: (lines: string[], batch: FakeBatch) => string[]) {
  return (batch: FakeBatch) =>
    edit(batch.results!.split('\n').filter(Boolean), batch).join('\n') + '\n';
}

describe.each(['openai', 'anthropic', 'gemini'] as const)(
  'results lines as untrusted input (%s)',
  (wire) => {
    const idField = wire === 'gemini' ? 'key' : 'custom_id';
    it('a line that is not JSON, one nested 20,000 deep and one over the reply cap each cost one case', async () => {
      fake.configure({
        resultsBody: editedResults((lines) => {
          const id = (line: string) => JSON.parse(line)[idField] as string;
          const deep = '['.repeat(20_000) + ']'.repeat(20_000);
          return [
            lines[0]!,
            `{"${idField}":"${id(lines[1]!)}", this is not json`,
            `{"${idField}":"${id(lines[2]!)}","response":${deep}}`,
            `{"${idField}":"${id(lines[3]!)}","pad":"${'x'.repeat(200_000)}"}`,
            lines[4]!,
          ];
        }),
      });
      // The batcher is given its caps: a 64 KiB reply cap, so each results line may hold 128 KiB.
      const limits = { ...DEFAULT_LIMITS, replyBytes: 64 * 1024 };
      const { outcomes } = await drive(wire, prompts(5, `lines ${wire}`), { limits });
      const failed = outcomes.filter((outcome) => !outcome.ok);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
      expect(failed.map((outcome) => (outcome as { message: string }).message)).toEqual([
        expect.stringMatching(/parse_error: results line 2 is not readable JSON/),
        expect.stringMatching(
          /parse_error: results line 3 is not readable JSON \(nested more than 256/,
        ),
        expect.stringMatching(/parse_error: results line 4 is over 128 KiB \(the reply cap\)/),
      ]);
      expect(failed.every((outcome) => !(outcome as { deferred: boolean }).deferred)).toBe(true);
    }, 30_000);
  },
);

describe('results download cap', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)(
    '%s: a 629 MB body for a 3-request batch is refused at request count × the reply cap',
    async (wire) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      fake.configure({
        resultsBody: () =>
          (async function* () {
            for (let index = 0; index < 629; index += 1) {
              sent += chunk.length;
              yield chunk;
            }
          })(),
      });
      const { outcomes, runDir } = await drive(wire, prompts(3, `huge ${wire}`));
      expect(outcomes.map((outcome) => (outcome as { message: string }).message)).toEqual(
        Array(3).fill(expect.stringMatching(/results are over 48\.2 MiB .*refused/)),
      );
      // The fake stopped soon after the cap (the socket's buffers), and no part of the body was kept.
      expect(sent).toBeLessThan(120 * 1024 * 1024);
      expect(
        readdirSync(path.join(runDir, 'batches')).filter((name) => name.includes('output')),
      ).toEqual([]);
    },
    60_000,
  );
});

describe('a batch that fails as a whole', () => {
  const failWith = (code: string, message: string, over = 1) => ({
    view: (record: Record<string, unknown>, batch: FakeBatch) =>
      batch.ended && batch.items.length > over
        ? {
            ...record,
            status: 'failed',
            output_file_id: null,
            errors: { object: 'list', data: [{ code, message, line: null }] },
          }
        : record,
  });

  it('for its size (OpenAI enqueued-token limit): the reason is shown and the requests go into halves that can succeed', async () => {
    const from = fake.batches.length;
    fake.configure(failWith('token_limit_exceeded', 'Enqueued token limit reached for gpt-4o', 2));
    const { outcomes, events } = await drive('openai', prompts(4, 'too big'));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(mine(from, 'openai').map((batch) => batch.items.length)).toEqual([4, 2, 2]);
    expect(events.find((event) => event.kind === 'failed')).toMatchObject({
      reason: 'token_limit_exceeded: Enqueued token limit reached for gpt-4o',
      split: true,
    });
  }, 30_000);

  it('for another reason: shown on every case, and nothing is resubmitted', async () => {
    const from = fake.batches.length;
    fake.configure(failWith('invalid_file', 'The input file is not valid JSONL', 0));
    const { outcomes } = await drive('openai', prompts(3, 'bad file'));
    expect(mine(from, 'openai')).toHaveLength(1);
    expect(outcomes.map((outcome) => (outcome as { message: string }).message)).toEqual(
      Array(3).fill(
        expect.stringContaining('failed: invalid_file: The input file is not valid JSONL'),
      ),
    );
  }, 30_000);

  it('Gemini BATCH_STATE_FAILED: its error is read from the job and shown', async () => {
    const from = fake.batches.length;
    fake.configure({
      view: (record, batch) =>
        batch.ended
          ? {
              ...record,
              metadata: {
                ...(record.metadata as object),
                state: 'BATCH_STATE_FAILED',
                output: undefined,
              },
              error: {
                code: 3,
                status: 'INVALID_ARGUMENT',
                message: 'model does not support batch',
              },
            }
          : record,
    });
    const { outcomes, events } = await drive('gemini', prompts(2, 'gemini failed'));
    expect(mine(from, 'gemini')).toHaveLength(1);
    expect(events.find((event) => event.kind === 'failed')?.reason).toBe(
      'INVALID_ARGUMENT: model does not support batch',
    );
    expect(
      outcomes.every(
        (outcome) => !outcome.ok && outcome.message.includes('model does not support batch'),
      ),
    ).toBe(true);
  }, 30_000);
});

describe('batch sizes and a stuck batch', () => {
  it('--batch-max-requests and --batch-max-tokens split what is gathered', async () => {
    let from = fake.batches.length;
    await drive('openai', prompts(5, 'max requests'), { maxRequests: 2 });
    // The batches are created concurrently: their sizes matter, not the order they arrive in.
    const sizes = (since: number) =>
      mine(since, 'openai')
        .map((batch) => batch.items.length)
        .sort((a, b) => b - a);
    expect(sizes(from)).toEqual([2, 2, 1]);
    from = fake.batches.length;
    // Room for two of these requests (as apb estimates them), not three.
    const each = estimateRequestTokens(request(prompts(4, 'max tokens')[0]!)).total;
    await drive('openai', prompts(4, 'max tokens'), { maxTokens: 2 * each + 1 });
    expect(sizes(from)).toEqual([2, 2]);
  }, 30_000);

  it('--batch-timeout ends a batch stuck in_progress: cancelled, its cases left unanswered and resumable', async () => {
    fake.configure({ pollsToEnd: 1_000_000 });
    const from = fake.batches.length;
    const { outcomes, batcher, events, runDir } = await drive('openai', prompts(3, 'stuck'), {
      timeoutMs: 50,
    });
    expect(mine(from, 'openai')).toHaveLength(1);
    expect(outcomes.every((outcome) => !outcome.ok && outcome.deferred)).toBe(true);
    expect(batcher.pending).toEqual({ deferred: 0, outstanding: 0, stranded: 3 });
    expect(events.map((event) => event.kind)).toContain('timed-out');
    expect(readFileSync(path.join(runDir, 'batches.jsonl'), 'utf8')).toContain(
      '"event":"timed-out"',
    );
    expect(existsSync(path.join(runDir, 'batch-results.jsonl'))).toBe(false);
  }, 30_000);
});
