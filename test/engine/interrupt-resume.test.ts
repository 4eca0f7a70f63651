/**
 * Unkillable runs over real HTTP: SIGKILL midway then resume gives the judgements of one
 * uninterrupted run (no duplicate, no loss, no finished case sent again); Ctrl-C exits 130 with
 * what finished kept and the manifest `interrupted`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caseKey,
  cli,
  completeLines,
  JUDGE_MODEL,
  readJsonl,
  readManifest,
  startCli,
  tempDir,
  waitForLines,
  useScriptedServer,
} from './helpers.js';

const fake = useScriptedServer();

const runArgs = (out: string, extra: string[] = []) => [
  'run',
  '--model',
  'openai-compatible:fake-planner',
  '--base-url',
  fake.server.baseUrl('openai'),
  '--out',
  out,
  '--no-cache',
  '--concurrency',
  '4',
  ...extra,
];
/** With an LLM judge on the same fake, so a kill can fall between a case's prediction and its judgement. */
const judgedArgs = (out: string) =>
  runArgs(out, [
    '--judge',
    `openai-compatible:${JUDGE_MODEL}`,
    '--judge-base-url',
    fake.server.baseUrl('openai'),
  ]);

/** What must be equal between two runs of the same cases: ids, statuses and parsed answers. */
const outcomeOf = (line: Record<string, any>) => ({
  key: caseKey(line),
  repeat: line.apb.prediction.repeat,
  planner: line.apb.prediction.status,
  parsed: line.apb.prediction.parsed,
  judge: line.apb.status,
  correct: line.judgement.is_correct,
  grade: line.judgement.grade,
  errors: line.judgement.error_list,
});
const byKey = (lines: Array<Record<string, any>>) =>
  new Map(lines.map((line) => [caseKey(line), outcomeOf(line)]));

describe('interrupted runs', () => {
  it('SIGKILL midway, then resume: the judgements of one uninterrupted run, and no finished case is sent again', async () => {
    fake.server.configure({
      latencyMs: 60,
      faults: { rate: 0.1, kinds: [429, 500, 'reset'], seed: 5 },
    });
    const reference = path.join(tempDir(), 'reference');
    expect((await cli(judgedArgs(reference))).code).toBe(0);

    fake.server.reset();
    fake.server.configure({
      latencyMs: 60,
      faults: { rate: 0.1, kinds: [429, 500, 'reset'], seed: 6 },
    });
    const out = path.join(tempDir(), 'killed');
    const first = startCli(judgedArgs(out));
    await waitForLines(path.join(out, 'judgements.jsonl'), 20);
    first.child.kill('SIGKILL');
    const killed = await first.result;
    expect(killed.signal).toBe('SIGKILL');
    const finishedBefore = new Set(readJsonl(path.join(out, 'judgements.jsonl')).map(caseKey));
    const predictedBefore = new Set(readJsonl(path.join(out, 'predictions.jsonl')).map(caseKey));
    expect(finishedBefore.size).toBeGreaterThanOrEqual(20);
    expect(finishedBefore.size).toBeLessThan(fake.script.cases.length);
    const requestsBefore = fake.server.count();

    const resumed = await cli(judgedArgs(out));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${finishedBefore.size} already finished, resuming`);

    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    const predictions = readJsonl(path.join(out, 'predictions.jsonl'));
    for (const lines of [judgements, predictions]) {
      const keys = lines.map(caseKey);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(fake.script.cases.length);
    }
    expect(byKey(judgements)).toEqual(byKey(readJsonl(path.join(reference, 'judgements.jsonl'))));
    const after = fake.server.requests.slice(requestsBefore);
    const resent = fake.script.countByCase(after);
    // A finished case is never asked again, and a saved prediction is judged without asking the planner again.
    expect([...resent.keys()].filter((key) => finishedBefore.has(key))).toEqual([]);
    const plannerResent = fake.script.countByCase(
      after.filter((request) => request.parsed?.model !== JUDGE_MODEL),
    );
    expect([...plannerResent.keys()].filter((key) => predictedBefore.has(key))).toEqual([]);
    expect(readManifest(out)).toMatchObject({
      status: 'complete',
      counts: { cases: fake.script.cases.length, resumed: finishedBefore.size },
    });
    const pending = predictedBefore.size - finishedBefore.size;
    console.info(
      `SIGKILL after ${finishedBefore.size} judgements (${pending} saved predictions awaiting a judge); after the kill: ${resent.size} cases requested, 0 of the finished ones, ${plannerResent.size} planner calls (none for a saved prediction)`,
    );
  }, 120_000);

  it('Ctrl-C: no new case starts, cases in flight finish, exit 130, the manifest says interrupted, and a rerun resumes', async () => {
    fake.server.configure({ latencyMs: 150 });
    const out = path.join(tempDir(), 'interrupted');
    const run = startCli(runArgs(out));
    await waitForLines(path.join(out, 'judgements.jsonl'), 8);
    run.child.kill('SIGINT');
    const requestsAtSignal = fake.server.count();
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('interrupt received');
    // Only the cases already in flight were asked after the signal; each was finished and kept.
    expect(fake.server.count() - requestsAtSignal).toBeLessThanOrEqual(4);
    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    expect(judgements.length).toBeGreaterThanOrEqual(8);
    expect(judgements.length).toBeLessThan(fake.script.cases.length);
    expect(judgements.length).toBe(fake.server.count());
    expect(completeLines(path.join(out, 'predictions.jsonl'))).toBe(judgements.length);
    expect(readManifest(out)).toMatchObject({
      status: 'interrupted',
      counts: { judgements: { ok: judgements.length } },
    });

    fake.server.configure({ latencyMs: 0 });
    const resumed = await cli(runArgs(out));
    expect(resumed.code).toBe(0);
    expect(readJsonl(path.join(out, 'judgements.jsonl'))).toHaveLength(fake.script.cases.length);
  }, 60_000);

  it('a second Ctrl-C cancels the calls in flight at once: exit 130, nothing half-recorded', async () => {
    fake.server.configure({ latencyMs: 20_000 });
    const out = path.join(tempDir(), 'cancelled');
    const run = startCli(runArgs(out));
    while (fake.server.count() < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.stderr).toContain('cancelling the calls in flight');
    expect(fake.server.count()).toBe(4);
    expect(completeLines(path.join(out, 'judgements.jsonl'))).toBe(0);
    expect(completeLines(path.join(out, 'predictions.jsonl'))).toBe(0);
    expect(readManifest(out).status).toBe('interrupted');
  }, 60_000);
});
