import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { nonFinitePath } from './finite.js';
import { readPool, readTrajectories } from './inputs.js';
import { shopRecord } from './make-source.fixture.js';
import { readSources } from './store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'apb-finite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function issuesOf(read: Promise<unknown>): Promise<string[]> {
  try {
    await read;
  } catch (error) {
    if (error instanceof InputError)
      return error.issues.map((issue) => `${issue.line}:${issue.field}:${issue.message}`);
    throw error;
  }
  return [];
}

describe('non-finite numbers in construction input (issue 24: 1e400 became null)', () => {
  it('finds the path of the first non-finite number', () => {
    expect(nonFinitePath({ a: [1, { b: Infinity }] })).toBe('a[1].b');
    expect(nonFinitePath({ a: [1, 2], b: 'Infinity' })).toBeNull();
  });

  it('refuses a source record holding 1e400, naming line and field', async () => {
    const out = path.join(dir, 'sources');
    const record = JSON.stringify(shopRecord()).replace('"ana@example.com"}', '1e400}');
    expect(record).toContain('1e400');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, 'sources.jsonl'),
      `${JSON.stringify(shopRecord('a'))}\n${record}\n`,
    );
    const issues = await issuesOf(readSources(out));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^2:messages\[0\]\.tool_calls\[0\]\.arguments\.email:.*1e400.*null/);
  });

  it('refuses 1e400 in a trajectory line, also inside a JSON-string arguments field', async () => {
    const file = path.join(dir, 'traj.jsonl');
    const line = (args: string) =>
      `{"id":"t","tools":[{"name":"pay","description":"Pay.","parameters":{"type":"object"}}],"messages":[{"role":"user","content":"pay"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"pay","arguments":${args}}}]}]}`;
    writeFileSync(file, `${line('{"amount": 1e400}')}\n${line('"{\\"amount\\": -1e400}"')}\n`);
    const issues = await issuesOf(readTrajectories([file]));
    expect(issues.map((issue) => issue.split(':').slice(0, 2).join(':'))).toEqual([
      '1:messages[1].tool_calls[0].function.arguments.amount',
      '2:messages[0].tool_calls[0].arguments.amount',
    ]);
  });

  it('refuses 1e400 in a distractor pool given as a JSON array', async () => {
    const file = path.join(dir, 'pool.json');
    writeFileSync(file, '[{"name":"x","description":"X.","cost":1e400}]');
    expect(await issuesOf(readPool([file]))).toEqual([
      expect.stringMatching(/^1:\[0\]\.cost:.*1e400/),
    ]);
  });
});
