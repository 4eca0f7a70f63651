/**
 * `apb judge` over real HTTP: the planner (a fake model too) is never called again; the judge sees
 * the planner's exact prompt, rebuilt from the dataset; appending is resume-safe; a new --out
 * directory gets the predictions and its own manifest; a changed dataset is refused.
 */
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DATASET_DIR } from '../../src/dataset/read-cases.js';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../fake-server/index.js';
import { apb, correctReplyFor, material, readLines, tempDir } from './helpers.js';

const PLANNER = 'openai-compatible:planner-x';
const JUDGE = 'openai-compatible:judge-y';
let server: FakeServer;
let url: string;
const cacheDir = tempDir('apb-rejudge-cache-');
const work = tempDir();
const dataA = path.join(work, 'data-a');
const dataB = path.join(work, 'data-b');
const run = path.join(work, 'run');

/** Requests per model, e.g. `{ 'planner-x': 4, 'judge-y': 4 }`. */
const perModel = () => {
  const counts: Record<string, number> = {};
  for (const request of server.requests)
    counts[request.parsed!.model!] = (counts[request.parsed!.model!] ?? 0) + 1;
  return counts;
};
/** Every text part of a chat-completions request body, as sent (the fake's parsed view joins a message's parts). */
function textParts(request: RecordedRequest): string[] {
  const messages = (request.body?.messages ?? []) as {
    content: string | { type: string; text?: string }[];
  }[];
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? [message.content]
      : message.content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])),
  );
}
const plannerReply = {
  text: JSON.stringify({ plan: 'Look the facts up, then act on them.', tool_chain: [] }),
};

beforeAll(async () => {
  server = await startFakeServer({
    respond: (request: RecordedRequest) =>
      request.parsed!.model === 'planner-x' ? plannerReply : { text: correctReplyFor(request) },
  });
  url = server.baseUrl('openai');
  cpSync(SAMPLE_DATASET_DIR, dataA, { recursive: true });
  cpSync(SAMPLE_DATASET_DIR, dataB, { recursive: true });
  const result = await apb(
    [
      'run',
      '--data',
      dataA,
      '--model',
      PLANNER,
      '--base-url',
      url,
      '--judge',
      'rules',
      '--splits',
      'holistic_planning,step_wise_tool_broken',
      '--limit',
      '2',
      '--out',
      run,
      '--no-cache',
    ],
    cacheDir,
  );
  expect(result.code, result.stderr).toBe(0);
  expect(perModel()).toEqual({ 'planner-x': 4 });
});
afterAll(() => server.close());

describe('apb judge', () => {
  it("appends the new judge's lines to the run with zero planner calls, showing the judge the planner's exact prompt", async () => {
    const result = await apb(
      ['judge', run, '--judge', JUDGE, '--judge-base-url', url, '--no-cache'],
      cacheDir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${JUDGE}: 4 judged, 0 already judged`);
    expect(perModel()).toEqual({ 'planner-x': 4, 'judge-y': 4 });
    const plannerRequests = server.requests.filter(
      (request) => request.parsed!.model === 'planner-x',
    );
    const judgeMaterials = server.requests
      .filter((request) => request.parsed!.model === 'judge-y')
      .map(material);
    for (const request of plannerRequests) {
      const parts = textParts(request);
      expect(parts.length).toBeGreaterThan(1);
      expect(
        judgeMaterials.filter((text) => parts.every((part) => text.includes(part))),
      ).toHaveLength(1);
    }
    const lines = readLines(path.join(run, 'judgements.jsonl'));
    expect(lines.map((line) => line.judge_model)).toEqual([
      'rules',
      'rules',
      'rules',
      'rules',
      JUDGE,
      JUDGE,
      JUDGE,
      JUDGE,
    ]);
    const manifest = JSON.parse(readFileSync(path.join(run, 'manifest.json'), 'utf8'));
    expect(manifest.identity.judges).toEqual(['rules']);
    expect(manifest.rejudges).toEqual([
      expect.objectContaining({
        judges: [JUDGE],
        judge_protocol: 'paper',
        judge_blind: false,
        judge_base_url: url,
      }),
    ]);
    const scores = JSON.parse(readFileSync(path.join(run, 'scores.json'), 'utf8'));
    expect(scores.agreement.judges).toEqual([JUDGE, 'rules']);
    expect(scores.agreement.overall.pairs[0].n).toBe(4);
  });

  it('skips what this judge already judged, and refuses the same judge set up otherwise', async () => {
    const before = readFileSync(path.join(run, 'judgements.jsonl'), 'utf8');
    const again = await apb(
      ['judge', run, '--judge', JUDGE, '--judge-base-url', url, '--no-cache'],
      cacheDir,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${JUDGE}: 0 judged, 4 already judged`);
    expect(readFileSync(path.join(run, 'judgements.jsonl'), 'utf8')).toBe(before);
    expect(perModel()).toEqual({ 'planner-x': 4, 'judge-y': 4 });
    const other = await apb(
      ['judge', run, '--judge', JUDGE, '--judge-base-url', url, '--protocol', 'official'],
      cacheDir,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`already holds judgements of ${JUDGE} made with other settings`);
  });

  it('writes a panel into a new --out directory: predictions copied, its own manifest, scores', async () => {
    const out = path.join(work, 'panel');
    const result = await apb(
      [
        'judge',
        run,
        '--judge',
        'rules',
        '--judge',
        JUDGE,
        '--judge-base-url',
        url,
        '--out',
        out,
        '--no-cache',
      ],
      cacheDir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(perModel()).toEqual({ 'planner-x': 4, 'judge-y': 8 });
    expect(readFileSync(path.join(out, 'predictions.jsonl'), 'utf8')).toBe(
      readFileSync(path.join(run, 'predictions.jsonl'), 'utf8'),
    );
    const lines = readLines(path.join(out, 'judgements.jsonl'));
    expect(lines).toHaveLength(4);
    expect(
      lines.every(
        (line) => line.judge_model === `panel(rules+${JUDGE})` && line.apb.judges.length === 2,
      ),
    ).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      status: 'complete',
      identity: { judges: ['rules', JUDGE], tested_model: PLANNER },
      rejudges: [{ source: run }],
    });
    const scores = JSON.parse(readFileSync(path.join(out, 'scores.json'), 'utf8'));
    expect(scores.total_records).toBe(4);
    expect(scores.agreement.judges).toEqual([JUDGE, 'rules']);
    const resumed = await apb(
      [
        'judge',
        run,
        '--judge',
        'rules',
        '--judge',
        JUDGE,
        '--judge-base-url',
        url,
        '--out',
        out,
        '--no-cache',
      ],
      cacheDir,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readLines(path.join(out, 'judgements.jsonl'))).toHaveLength(4);
  });

  it('refuses a dataset whose content changed since the run, and accepts the same content elsewhere with --data', async () => {
    appendFileSync(path.join(dataA, 'data', 'holistic_planning.jsonl'), '\n');
    const refused = await apb(
      ['judge', run, '--judge', 'rules', '--out', path.join(work, 'changed')],
      cacheDir,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the dataset at ${dataA} is not the one ${run} was run on`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const moved = await apb(
      ['judge', run, '--judge', 'rules', '--data', dataB, '--out', path.join(work, 'moved')],
      cacheDir,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect(perModel()['planner-x']).toBe(4);
  });

  it('rejects bad arguments with exit 2', async () => {
    for (const args of [
      ['judge', run],
      ['judge', path.join(work, 'nowhere'), '--judge', 'rules'],
      ['judge', run, '--judge', 'rules', '--judge', 'rules'],
      ['judge', run, '--judge', 'rules', '--judge-blind'],
      ['judge', run, '--judge', 'baseline:oracle'],
    ]) {
      const result = await apb(args, cacheDir);
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
