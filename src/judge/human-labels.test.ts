import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { parseHumanLabels } from './human-labels.js';

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    id: 'c1',
    tested_model: 'm',
    is_correct: true,
    grade: 1,
    error_list: [0, 0, 0, 0, 0, 0],
    ...fields,
  });

function issuesOf(text: string): string[] {
  try {
    parseHumanLabels(text, 'labels.jsonl');
  } catch (error) {
    if (error instanceof InputError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('parseHumanLabels', () => {
  it('reads valid lines, skipping blanks, a BOM and CRLF', () => {
    const text = `\uFEFF${line({ correct_but_different: true, annotator: 'ann-1' })}\r\n\r\n${line({ id: 7, is_correct: false, grade: 0.4, error_list: [0, 1, 0, 0, 0, 0] })}\n`;
    expect(parseHumanLabels(text, 'labels.jsonl')).toEqual([
      {
        id: 'c1',
        tested_model: 'm',
        is_correct: true,
        grade: 1,
        error_list: [0, 0, 0, 0, 0, 0],
        correct_but_different: true,
      },
      { id: '7', tested_model: 'm', is_correct: false, grade: 0.4, error_list: [0, 1, 0, 0, 0, 0] },
    ]);
  });

  it('reports every problem as FILE:LINE: field: message', () => {
    const text = [
      line({ is_correct: 'false' }),
      line({ grade: 0.7 }),
      line({ error_list: [0, 0, 0, 0, 0] }),
      line({ error_list: [0, 2, 0, 0, 0, 0], is_correct: false }),
      '{not json',
      line({ is_correct: true, error_list: [0, 0, 1, 0, 0, 0] }),
      line({ id: 'c2', is_correct: false, grade: 0.2, correct_but_different: true }),
      line({}),
      line({}),
    ].join('\n');
    const issues = issuesOf(text);
    expect(issues[0]).toBe('labels.jsonl:1: is_correct: expected true or false');
    expect(issues).toContain('labels.jsonl:2: grade: must be one of 0, 0.2, 0.4, 0.6, 0.8, 1');
    expect(issues).toContain('labels.jsonl:3: error_list: must hold exactly six entries (E1..E6)');
    expect(issues).toContain('labels.jsonl:4: error_list[1]: expected 0 or 1');
    expect(issues.some((issue) => issue.startsWith('labels.jsonl:5: (line): invalid JSON'))).toBe(
      true,
    );
    expect(issues).toContain('labels.jsonl:6: error_list: a correct answer has no error flagged');
    expect(issues).toContain(
      'labels.jsonl:7: correct_but_different: only a correct answer can be correct but different',
    );
    // line 8 is the first valid (c1, m); line 9 repeats it
    expect(issues).toContain('labels.jsonl:9: id: duplicate label for (c1, m); first on line 8');
  });

  it('requires the key fields', () => {
    const issues = issuesOf(
      JSON.stringify({ is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0] }),
    );
    expect(issues).toEqual([
      'labels.jsonl:1: id: expected a non-empty string id',
      'labels.jsonl:1: tested_model: expected a string',
    ]);
  });
});
