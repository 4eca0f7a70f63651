/** `apb judge` judges the saved text (`model_response`, parsed again), never a stale stored parse (issue 11). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apb, readLines, tempDir } from './helpers.js';

describe('apb judge re-reads model_response', () => {
  it('a line whose text was replaced is judged on the new text, not on the parse stored beside it', async () => {
    const cacheDir = tempDir('apb-reparse-cache-');
    const run = path.join(tempDir(), 'run');
    expect(
      (
        await apb(
          [
            'run',
            '--model',
            'baseline:oracle',
            '--splits',
            'holistic_planning',
            '--limit',
            '2',
            '--out',
            run,
          ],
          cacheDir,
        )
      ).code,
    ).toBe(0);
    const file = path.join(run, 'predictions.jsonl');
    const lines = readLines(file);
    // The first answer's text is replaced (as a refined or edited line would be); its stored parse
    // stays the oracle's plan.
    lines[0]!.model_response = JSON.stringify({
      status: 'REJECT',
      reason: 'I will not plan this.',
    });
    expect(lines[0]!.apb.parsed.kind).toBe('plan');
    writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const out = path.join(tempDir(), 'rejudged');
    const result = await apb(['judge', run, '--judge', 'rules', '--out', out], cacheDir);
    expect(result.code, result.stderr).toBe(0);
    const judged = Object.fromEntries(
      readLines(path.join(out, 'judgements.jsonl')).map((line) => [line.id, line]),
    );
    expect(judged[lines[0]!.id]!.judgement).toMatchObject({ is_correct: false, refused: true });
    expect(judged[lines[0]!.id]!.apb.findings.refusal).toMatchObject({
      refused: true,
      explicit: true,
    });
    expect(judged[lines[1]!.id]!.judgement.is_correct).toBe(true);
    expect(readFileSync(path.join(out, 'predictions.jsonl'), 'utf8')).toContain(
      'I will not plan this.',
    );
  });
});
