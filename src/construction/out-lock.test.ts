import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireRunLock, RUN_LOCK_FILE, RunLockedError } from '../rundir/lock.js';
import { shopRecord } from './make-source.fixture.js';
import { runPipeline } from './pipeline.js';
import { runStep, type StepDeps } from './run-step.js';
import { StepSpecSchema } from './step-spec.js';

const root = mkdtempSync(path.join(tmpdir(), 'apb-out-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sources = path.join(root, 'sources');
mkdirSync(sources);
writeFileSync(
  path.join(sources, 'sources.jsonl'),
  [shopRecord('a'), shopRecord('b')].map((record) => `${JSON.stringify(record)}\n`).join(''),
);
const deps: StepDeps = {
  environment: () => {
    throw new Error('no environment in this test');
  },
  solvedBy: () => Promise.resolve(new Set()),
};
const check = (out: string) =>
  runStep({ spec: StepSpecSchema.parse({ step: 'check' }), inputs: [sources], out, seed: 1 }, deps);

describe('one writer per construct --out (issue 24: two pipelines wrote into one output)', () => {
  it('refuses a second step writing the same --out while the first runs, then frees it', async () => {
    const out = path.join(root, 'checked');
    const [first, second] = await Promise.allSettled([check(out), check(out)]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    const error = (second as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(RunLockedError);
    expect(error.message).toMatch(/is being written by apb construct check \(pid \d+/);
    expect(existsSync(path.join(out, RUN_LOCK_FILE))).toBe(false);
    expect(existsSync(path.join(out, 'sources.jsonl'))).toBe(true);
    await expect(check(out)).resolves.toMatchObject({ sources: 2 });
  });

  it('refuses a pipeline whose --out another construction holds, touching nothing in it', async () => {
    const out = path.join(root, 'pipeline');
    const held = acquireRunLock(out, 'construct pipeline');
    writeFileSync(path.join(out, 'marker'), 'kept');
    try {
      const config = { seed: 1, steps: [StepSpecSchema.parse({ step: 'check', in: [sources] })] };
      await expect(
        runPipeline({ config, out, baseDir: root, modelFor: () => undefined }, deps),
      ).rejects.toThrow(RunLockedError);
      expect(existsSync(path.join(out, 'marker'))).toBe(true);
    } finally {
      held.release();
    }
  });
});
