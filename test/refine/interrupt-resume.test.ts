/**
 * An unkillable refinement: SIGKILL midway, then the same command again. No finished critique or
 * revision is sent again (only the steps that were in flight at the kill), no line is duplicated,
 * the result is that of an uninterrupted run, and the source run's files are byte-identical.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caseKey,
  cli,
  completeLines,
  readJsonl,
  readManifest,
  startCli,
  tempDir,
  waitForLines,
} from '../engine/helpers.js';
import { kindOf, outcomeAt, sourceArgs, useRefineServer } from './script.js';

const fake = useRefineServer();
const hashes = (dir: string) =>
  Object.fromEntries(
    ['manifest.json', 'predictions.jsonl', 'judgements.jsonl', 'scores.json', 'report.md'].map(
      (name) => [
        name,
        createHash('sha256')
          .update(readFileSync(path.join(dir, name)))
          .digest('hex'),
      ],
    ),
  );

describe('apb refine interrupted', () => {
  it('SIGKILL midway, then resume: finished steps are not re-sent, no duplicate line, the source untouched', async () => {
    const source = path.join(tempDir('apb-refine-kill-'), 'source');
    expect((await cli(sourceArgs(fake.server.baseUrl('openai'), source))).code).toBe(0);
    const before = hashes(source);
    fake.server.reset();
    fake.server.configure({ latencyMs: 60 });
    const out = path.join(tempDir('apb-refine-kill-'), 'refined');
    const args = [
      'refine',
      source,
      '--mode',
      'self',
      '--rounds',
      '2',
      '--out',
      out,
      '--no-cache',
      '--concurrency',
      '2',
    ];
    const journal = path.join(out, 'refine-steps.jsonl');
    const first = startCli(args);
    await waitForLines(journal, 10);
    first.child.kill('SIGKILL');
    expect((await first.result).signal).toBe('SIGKILL');
    const finishedSteps = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('}'))
      .map((line) => JSON.parse(line) as { fingerprint: string; kind: string; round: number });
    const linesBefore = completeLines(path.join(out, 'judgements.jsonl'));
    expect(linesBefore).toBeLessThan(12);
    const requestsBefore = fake.server.requests.length;

    const resumed = await cli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const predictions = readJsonl(path.join(out, 'predictions.jsonl'));
    const judgements = readJsonl(path.join(out, 'judgements.jsonl'));
    for (const lines of [predictions, judgements]) {
      expect(lines).toHaveLength(12);
      expect(new Set(lines.map(caseKey)).size).toBe(12);
    }
    // Per case and kind, the requests after the kill are exactly the steps not finished before it.
    const caseOfFingerprint = new Map(
      predictions.map((line) => [line.apb.fingerprint as string, caseKey(line)]),
    );
    const after = fake.server.requests.slice(requestsBefore);
    let resent = 0;
    for (const [fingerprint, key] of caseOfFingerprint) {
      for (const kind of ['critique', 'revision'] as const) {
        const done = finishedSteps.filter(
          (step) => step.fingerprint === fingerprint && step.kind === kind,
        ).length;
        const sent = after.filter(
          (request) => kindOf(request) === kind && fake.script.base.caseOf(request) === key,
        ).length;
        expect(sent, `${key} ${kind}`).toBe(2 - done);
        resent += sent;
      }
    }
    expect(finishedSteps.length).toBeGreaterThanOrEqual(10);
    expect(resent).toBe(48 - finishedSteps.length);
    // Every round kept, and the outcome of an uninterrupted run.
    for (const line of judgements) {
      expect(line.apb.refinement.critiques).toHaveLength(2);
      expect(line.apb.refinement.revisions).toHaveLength(2);
      expect(line.judgement.is_correct).toBe(
        outcomeAt(fake.script.positionOf(caseKey(line)), 'self+').after,
      );
    }
    expect(readManifest(out)).toMatchObject({
      status: 'complete',
      usage: { critic: { calls: 24 }, planner: { calls: 24 } },
    });
    expect(hashes(source)).toEqual(before);
    console.info(
      `SIGKILL after ${finishedSteps.length} finished steps and ${linesBefore} judged answers; after resume ${resent} critique/revision requests (48 − ${finishedSteps.length}), none for a finished step`,
    );
  }, 120_000);
});
