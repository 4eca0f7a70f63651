import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-lines.fixture.js';
import { fakeLeaderboard } from './fake-leaderboard.fixture.js';
import { csvField, renderCsv } from './csv.js';

describe('csv', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    [null, ''],
    [74.44444444, '74.44444444'],
  ])('csvField(%j)', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('writes one file per table with raw values and intervals as _lo/_hi', () => {
    const files = renderCsv(fakeReport([{ dir: 'runs/a', specs: fakeLeaderboard() }]));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'table1_holistic.csv',
        'table2.csv',
        'table14.csv',
        'paired.csv',
        'runs.csv',
      ]),
    );
    const [header, first] = files['table1_holistic.csv']!.split('\r\n');
    expect(header).toBe(
      'model,judge,holistic_cr,holistic_cr_ci_lo,holistic_cr_ci_hi,holistic_grade,holistic_e1,holistic_e2,holistic_e3,holistic_e4,holistic_e5,holistic_e6,n,errors,parse_errors,judge_errors',
    );
    expect(first).toMatch(/^openai:gpt-4o,rules,50,\d+\.\d+,\d+\.\d+,/);
  });
});
