/** The one adapter of official-harness judgement lines, on the official line shapes in test/metrics/fixtures. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfficialJudgementLineSchema } from '../../src/rundir/schemas/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

const ODD = path.join(REPO_ROOT, 'test', 'metrics', 'fixtures', 'official-odd.jsonl');
const lines = readFileSync(ODD, 'utf8')
  .split('\n')
  .filter((text) => text.trim())
  .map((text) => JSON.parse(text) as Record<string, unknown>);

describe('OfficialJudgementLineSchema on official-odd.jsonl', () => {
  it('reads every line, its judgement by the strict boolean rule', () => {
    const read = lines.map((line) => OfficialJudgementLineSchema.parse(line));
    expect(read).toHaveLength(lines.length);
    for (const [index, line] of read.entries()) {
      const raw = (lines[index]!.judgement ?? {}) as Record<string, unknown>;
      const expected =
        raw.is_correct === true || raw.is_correct === 1
          ? true
          : raw.is_correct === false || raw.is_correct === 0
            ? false
            : null;
      expect(line.judgement.isCorrect, `line ${index + 1}`).toBe(expected);
    }
    // Line 2's "false" is a string: no verdict, never a pass (the scorer's bool("false") is True).
    expect(read[1]!.judgement.isCorrect).toBeNull();
    expect(read.some((line) => line.judgement.isCorrect === true)).toBe(true);
  });
});
