/**
 * `apb merge` over planted files (issue 24): a `predictions.jsonl` symlinked to `/proc/self/environ`
 * was followed (reported `complete` with 32 of 69 predictions), and a shard holding another model's
 * lines under an intact manifest was accepted. Sources are made by the real CLI (offline baseline
 * runs of the built-in sample); the merge runs in process.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeRuns } from '../../src/pipeline/merge.js';
import { runCli } from '../helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'apb-merge-attacks-'));
const dir = (name: string) => path.join(work, name);

beforeAll(async () => {
  for (const index of [1, 2]) {
    const result = await runCli(
      [
        'run',
        '--model',
        'baseline:heuristic',
        '--shard',
        `${index}/2`,
        '--out',
        dir(`shard-${index}`),
      ],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
  }
}, 240_000);

/** A copy of shard 2 to tamper with. */
function tampered(name: string): string {
  const copy = dir(name);
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir('shard-2'), copy, { recursive: true });
  return copy;
}

describe('apb merge refuses planted files', () => {
  it('a predictions.jsonl that is a symlink (to /proc/self/environ) is refused, naming the file; nothing is merged', async () => {
    const source = tampered('linked');
    rmSync(path.join(source, 'predictions.jsonl'));
    symlinkSync('/proc/self/environ', path.join(source, 'predictions.jsonl'));
    const out = dir('out-linked');
    await expect(mergeRuns([dir('shard-1'), source], out)).rejects.toThrow(
      `${path.join(source, 'predictions.jsonl')}:1: (file): a symbolic link (apb merge reads only files apb wrote)`,
    );
    expect(() => readFileSync(path.join(out, 'manifest.json'))).toThrow();
  });

  it("a shard holding another model's lines under an intact manifest is refused at the first such line", async () => {
    const source = tampered('foreign');
    const file = path.join(source, 'predictions.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const forged = lines.map((line, index) =>
      index === 1 ? JSON.stringify({ ...JSON.parse(line), tested_model: 'openai:gpt-4o' }) : line,
    );
    writeFileSync(file, `${forged.join('\n')}\n`);
    await expect(mergeRuns([dir('shard-1'), source], dir('out-foreign'))).rejects.toThrow(
      `${file}:2: tested_model: "openai:gpt-4o", but the manifest's run tests "baseline:heuristic"`,
    );
  });

  it('a judgement by a judge the manifest does not name is refused', async () => {
    const source = tampered('judge');
    const file = path.join(source, 'judgements.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      file,
      `${[JSON.stringify({ ...JSON.parse(lines[0]!), judge_model: 'openai:gpt-4.1' }), ...lines.slice(1)].join('\n')}\n`,
    );
    await expect(mergeRuns([dir('shard-1'), source], dir('out-judge'))).rejects.toThrow(
      `${file}:1: judge_model: "openai:gpt-4.1", not a judge of the manifest's run`,
    );
  });

  it('untampered shards still merge', async () => {
    const summary = await mergeRuns([dir('shard-1'), dir('shard-2')], dir('out-clean'));
    expect(summary.manifest.status).toBe('complete');
  });
});
