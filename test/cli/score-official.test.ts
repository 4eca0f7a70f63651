/** `apb score` on official-harness files: 1/0 correctness, the legacy tool-broken category keys, and an official scores.json kept. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const line = (id: string, split: string, judgement: Record<string, unknown>) =>
  JSON.stringify({
    id,
    split,
    planning_regime: split.startsWith('step') ? 'Step-wise' : 'Holistic',
    task_category: 'x',
    tested_model: 'm',
    judge_model: 'j',
    model_response: '{}',
    judgement,
  });

describe('apb score on official-harness files', () => {
  it('reads is_correct 1/0 as the official scorer does, reads category / category_name, and keeps the official scores.json', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'apb-official-'));
    writeFileSync(
      path.join(dir, 'judgements.jsonl'),
      [
        line('h1', 'holistic_planning', {
          is_correct: 1,
          grade: 1,
          error_list: [0, 0, 0, 0, 0, 0],
        }),
        line('h2', 'holistic_planning', {
          is_correct: 0,
          grade: 0.4,
          error_list: [0, 1, 0, 0, 0, 0],
        }),
        line('b1', 'step_wise_tool_broken', {
          is_correct: true,
          grade: 1,
          category: 1,
          category_name: 'replacement',
        }),
        line('b2', 'step_wise_tool_broken', {
          is_correct: true,
          grade: 1,
          category_name: 'alternative',
        }),
        line('b3', 'step_wise_tool_broken', { is_correct: false, grade: 0, category: 3 }),
      ].join('\n') + '\n',
    );
    const official = `${JSON.stringify({ total_records: 5, groups: { overall: { records: 5, accuracy: 0.6, average_grade: 0.68 } } })}\n`;
    writeFileSync(path.join(dir, 'scores.json'), official);
    const result = await runCli(['score', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('was not written by apb');
    expect(result.stdout).toContain('scores.official.json');
    expect(readFileSync(path.join(dir, 'scores.official.json'), 'utf8')).toBe(official);
    const scores = JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8'));
    const [row] = scores.tables.table1;
    expect(row.holistic).toMatchObject({ cr: 50, n: 2, judge_errors: 0 });
    expect(row.tool_broken).toMatchObject({
      replace: 100 / 3,
      alter: 100 / 3,
      retry: 100 / 3,
      other: 0,
      n: 3,
    });
    // A second score run finds apb's own scores.json and backs nothing up.
    const again = await runCli(['score', dir]);
    expect(again.stdout).not.toContain('was not written by apb');
  });
});
