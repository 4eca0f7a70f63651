import { describe, expect, it } from 'vitest';
import { parseVerdict, type VerdictExpectation } from './parse-verdict.js';
import type { JudgeOutcome } from './verdict.js';

const PAPER_GRADED: VerdictExpectation = {
  shape: 'graded',
  consistency: 'strict',
  passIsRefusal: false,
};
const OFFICIAL_GRADED: VerdictExpectation = {
  shape: 'graded',
  consistency: 'flags-veto',
  passIsRefusal: false,
};
const OFFICIAL_UNSOLVABLE: VerdictExpectation = {
  shape: 'graded',
  consistency: 'none',
  passIsRefusal: true,
};
const BEHAVIOR: VerdictExpectation = {
  shape: 'behavior',
  consistency: 'none',
  passIsRefusal: false,
};
const REFUSAL: VerdictExpectation = { shape: 'refusal', consistency: 'none', passIsRefusal: true };

const NONE = { E1: false, E2: false, E3: false, E4: false, E5: false, E6: false };
const good = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ reasoning: 'sound plan', errors: NONE, is_correct: true, grade: 1, ...extra });

const isCorrect = (outcome: JudgeOutcome) => outcome.kind === 'verdict' && outcome.correct;

describe('parseVerdict: readable verdicts', () => {
  it('reads a plain correct verdict with named flags', () => {
    const outcome = parseVerdict(good(), PAPER_GRADED);
    expect(outcome).toEqual({
      kind: 'verdict',
      correct: true,
      grade: 1,
      errors: [false, false, false, false, false, false],
      reasoning: 'sound plan',
      notes: [],
    });
  });

  it('reads a fenced verdict and notes the packaging', () => {
    const outcome = parseVerdict('```json\n' + good() + '\n```', PAPER_GRADED);
    expect(isCorrect(outcome)).toBe(true);
    expect(outcome.kind === 'verdict' && outcome.notes).toContain(
      'JSON was surrounded by other text or a code fence',
    );
  });

  it('reads JSON inside prose and after a thinking block', () => {
    expect(isCorrect(parseVerdict(`Let me look.\n${good()}\nDone.`, PAPER_GRADED))).toBe(true);
    expect(isCorrect(parseVerdict(`<think>is {it} right?</think>${good()}`, PAPER_GRADED))).toBe(
      true,
    );
  });

  it('finds the verdict after a stray brace in the prose', () => {
    expect(isCorrect(parseVerdict(`The set {a, b is odd. ${good()}`, PAPER_GRADED))).toBe(true);
  });

  it('reads an incorrect verdict from error_list and from legacy E-keys', () => {
    const fromList = parseVerdict(
      JSON.stringify({
        reasoning: 'r',
        is_correct: false,
        grade: 0.6,
        error_list: [0, 0, 0, 1, 0, 0],
      }),
      PAPER_GRADED,
    );
    expect(fromList).toMatchObject({
      kind: 'verdict',
      correct: false,
      grade: 0.6,
      errors: [false, false, false, true, false, false],
    });
    const legacy = {
      E1_GOAL_MISALIGNMENT: false,
      E2_PREMATURE_CONCLUSION: 0,
      E3_CONSTRAINT_VIOLATION: false,
      E4_LOGIC_ERROR: false,
      E5_TOOL_USE_ERROR: true,
      E6_HALLUCINATION_ERROR: false,
    };
    const fromKeys = parseVerdict(
      JSON.stringify({ ...legacy, is_correct: false, score: 0.6, reasoning: 'r' }),
      PAPER_GRADED,
    );
    expect(fromKeys).toMatchObject({
      kind: 'verdict',
      correct: false,
      grade: 0.6,
      errors: [false, false, false, false, true, false],
    });
    expect(fromKeys.kind === 'verdict' && fromKeys.notes).toContain('grade read from "score"');
  });
});

// The one strict boolean rule (rundir/schemas/boolean.ts, docs/judge.md): true/false and 1/0, as the
// official scorer's bool() reads them; a word — "yes", "NO", even "true" — is no verdict, never a pass.
describe('parseVerdict: the strict boolean rule', () => {
  const graded = (isCorrect: unknown, flag: unknown = false) =>
    JSON.stringify({
      reasoning: 'r',
      is_correct: isCorrect,
      grade: isCorrect === true || isCorrect === 1 ? 1 : 0.4,
      errors: { ...NONE, E2: isCorrect === true || isCorrect === 1 ? flag : true },
    });
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
  ])('is_correct %j is read as %j', (value, correct) => {
    expect(parseVerdict(graded(value), PAPER_GRADED)).toMatchObject({ kind: 'verdict', correct });
  });

  it.each([['yes'], ['no'], ['YES'], ['true'], ['false'], [' FALSE '], [2], [null], [[true]]])(
    'is_correct %j is unjudged',
    (value) => {
      expect(parseVerdict(graded(value), PAPER_GRADED)).toMatchObject({
        kind: 'unjudged',
        reason: 'judge-parse-failure',
      });
    },
  );

  it.each([[0], [false]])('an error flag %j reads as false', (flag) => {
    expect(parseVerdict(graded(true, flag), PAPER_GRADED)).toMatchObject({ correct: true });
  });

  it.each([['NO'], ['yes'], ['false']])('an error flag %j is unjudged', (flag) => {
    expect(parseVerdict(graded(true, flag), PAPER_GRADED)).toMatchObject({ kind: 'unjudged' });
  });

  it('reads a refusal flag by the same rule', () => {
    expect(parseVerdict('{"reasoning": "r", "refused": 0}', REFUSAL)).toMatchObject({
      kind: 'verdict',
      refused: false,
    });
    expect(parseVerdict('{"reasoning": "r", "refused": "yes"}', REFUSAL)).toMatchObject({
      kind: 'unjudged',
    });
  });
});

describe('parseVerdict: grades', () => {
  it.each([
    [0.75, 0.8],
    [0.5, 0.4], // an exact midpoint goes to the lower grade
    [0.93, 1],
    [0.1, 0], // midpoint again: lower
  ])('snaps off-grid %s to %s with a note', (given, snapped) => {
    const errors = snapped === 1 ? NONE : { ...NONE, E4: true };
    const outcome = parseVerdict(
      JSON.stringify({ reasoning: 'r', errors, is_correct: snapped === 1, grade: given }),
      PAPER_GRADED,
    );
    expect(outcome).toMatchObject({ kind: 'verdict', grade: snapped });
    expect(outcome.kind === 'verdict' && outcome.notes.join()).toContain(
      `off-grid grade ${given} snapped to ${snapped}`,
    );
  });

  it.each([[1.5], [-0.2], [80]])('rejects out-of-range grade %s', (grade) => {
    expect(parseVerdict(good({ grade }), PAPER_GRADED)).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-parse-failure',
    });
  });

  it('accepts a numeric string with a note and rejects a word', () => {
    expect(parseVerdict(good({ grade: '1.0' }), PAPER_GRADED)).toMatchObject({
      kind: 'verdict',
      grade: 1,
      notes: ['grade was given as a string'],
    });
    expect(parseVerdict(good({ grade: 'high' }), PAPER_GRADED)).toMatchObject({ kind: 'unjudged' });
  });

  it('caps grade 1 of an incorrect verdict at 0.8', () => {
    const outcome = parseVerdict(
      JSON.stringify({
        reasoning: 'r',
        errors: { ...NONE, E5: true },
        is_correct: false,
        grade: 1,
      }),
      PAPER_GRADED,
    );
    expect(outcome).toMatchObject({ kind: 'verdict', correct: false, grade: 0.8 });
  });
});

describe('parseVerdict: consistency (correct ⇔ no error)', () => {
  it('counts is_correct true with a flag set as incorrect, with a note', () => {
    const outcome = parseVerdict(good({ errors: { ...NONE, E3: true } }), PAPER_GRADED);
    expect(isCorrect(outcome)).toBe(false);
    expect(outcome).toMatchObject({
      kind: 'verdict',
      correct: false,
      grade: 0.8,
      errors: [false, false, true, false, false, false],
    });
    expect(outcome.kind === 'verdict' && outcome.notes.join()).toContain(
      'is_correct true with E3 flagged',
    );
  });

  it('does the same under the official protocol', () => {
    expect(
      isCorrect(
        parseVerdict(
          JSON.stringify({
            is_correct: true,
            grade: 1,
            error_list: [0, 0, 0, 0, 1, 0],
            reasoning: 'r',
          }),
          OFFICIAL_GRADED,
        ),
      ),
    ).toBe(false);
  });

  it('is Unjudged when is_correct is false and no error is flagged (paper)', () => {
    expect(parseVerdict(good({ is_correct: false, grade: 0.8 }), PAPER_GRADED)).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-inconsistent',
    });
  });

  it('keeps an unexplained failure as incorrect under the official protocol', () => {
    const outcome = parseVerdict(
      JSON.stringify({
        is_correct: false,
        grade: 0.4,
        error_list: [0, 0, 0, 0, 0, 0],
        reasoning: 'r',
      }),
      OFFICIAL_GRADED,
    );
    expect(outcome).toMatchObject({
      kind: 'verdict',
      correct: false,
      notes: ['is_correct false with no error flagged'],
    });
  });

  it('takes the official unsolvable pass flag as given and as the refusal flag', () => {
    const outcome = parseVerdict(
      JSON.stringify({
        is_correct: true,
        grade: 1,
        error_list: [0, 0, 0, 0, 0, 1],
        reasoning: 'r',
      }),
      OFFICIAL_UNSOLVABLE,
    );
    expect(outcome).toMatchObject({ kind: 'verdict', correct: true, refused: true });
  });
});

describe('parseVerdict: unreadable replies are Unjudged, never correct', () => {
  const table: [string, string, Partial<JudgeOutcome>][] = [
    ['empty reply', '', { reason: 'judge-parse-failure', message: 'the reply is empty' }],
    ['whitespace', '  \n ', { reason: 'judge-parse-failure' }],
    [
      'prose only',
      'The plan looks fine to me and solves the task.',
      { reason: 'judge-parse-failure', message: 'the reply holds no JSON object' },
    ],
    [
      'refusal to judge',
      "I'm sorry, but I can't evaluate this answer.",
      { reason: 'judge-refused' },
    ],
    [
      'refusal to judge, variant',
      'I am unable to assess the plan without more context.',
      { reason: 'judge-refused' },
    ],
    [
      'truncated JSON',
      '{"reasoning": "the plan calls search then", "errors": {"E1": false, "E2": fal',
      {
        reason: 'judge-parse-failure',
        message: 'the JSON verdict is incomplete (the reply looks truncated)',
      },
    ],
    [
      'truncated after a complete nested object',
      '{"reasoning": "x", "errors": {"E1": false, "E2": false, "E3": false, "E4": false, "E5": false, "E6": false}, "is_correct": tr',
      {
        reason: 'judge-parse-failure',
        message: 'the JSON verdict is incomplete (the reply looks truncated)',
      },
    ],
    [
      'truncated in a thinking block',
      '<think>the plan is fine so {"is_correct": true',
      { reason: 'judge-parse-failure', message: 'the reply ends inside a thinking block' },
    ],
    [
      'a second verdict cut off',
      `${'{"is_correct": true, "grade": 1, "error_list": [0,0,0,0,0,0]}'} and {"is_correct": fal`,
      { reason: 'judge-parse-failure' },
    ],
    [
      'two different verdicts',
      `${good()}\n${good({ is_correct: false, grade: 0.2, errors: { ...NONE, E1: true } })}`,
      { reason: 'judge-parse-failure' },
    ],
    ['JSON without verdict keys', '{"comment": "good"}', { reason: 'judge-parse-failure' }],
    ['an array', `[${good()}]`, { reason: 'judge-parse-failure' }],
    ['is_correct "maybe"', good({ is_correct: 'maybe' }), { reason: 'judge-parse-failure' }],
    ['is_correct "yes"', good({ is_correct: 'yes' }), { reason: 'judge-parse-failure' }],
    ['is_correct null', good({ is_correct: null }), { reason: 'judge-parse-failure' }],
    [
      'is_correct missing',
      JSON.stringify({ errors: NONE, grade: 1 }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'grade missing',
      JSON.stringify({ errors: NONE, is_correct: true }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'error_list of five',
      JSON.stringify({ is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0] }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'error_list of seven',
      JSON.stringify({ is_correct: true, grade: 1, error_list: [0, 0, 0, 0, 0, 0, 0] }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'error_list with a 2',
      JSON.stringify({ is_correct: true, grade: 1, error_list: [0, 2, 0, 0, 0, 0] }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'errors missing E6',
      good({ errors: { E1: false, E2: false, E3: false, E4: false, E5: false } }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'no flags at all',
      JSON.stringify({ is_correct: true, grade: 1 }),
      { reason: 'judge-parse-failure' },
    ],
    [
      'flags given twice, disagreeing',
      good({ error_list: [1, 0, 0, 0, 0, 0] }),
      { reason: 'judge-parse-failure' },
    ],
  ];
  it.each(table)('%s', (_, raw, expected) => {
    const outcome = parseVerdict(raw, PAPER_GRADED);
    expect(outcome).toMatchObject({ kind: 'unjudged', ...expected });
    expect(outcome.kind === 'unjudged' && outcome.rawText).toBe(raw);
    expect(isCorrect(outcome)).toBe(false);
  });
});

describe('parseVerdict: tool-broken behaviour', () => {
  it.each([
    ['replace', true],
    ['Alternative', true],
    ['retry', false],
    ['refusal', false],
    ['other', false],
  ] as const)('%s → correct %s', (behavior, correct) => {
    const outcome = parseVerdict(JSON.stringify({ reasoning: 'r', behavior }), BEHAVIOR);
    expect(outcome).toMatchObject({
      kind: 'verdict',
      correct,
      grade: correct ? 1 : 0,
      errors: [false, false, false, false, false, false],
    });
  });

  it('reads the legacy integer category and ignores a contradicting is_correct', () => {
    const outcome = parseVerdict(
      JSON.stringify({ category: 3, category_name: 'retry', is_correct: true, reason: 'r' }),
      BEHAVIOR,
    );
    expect(outcome).toMatchObject({
      kind: 'verdict',
      behavior: 'retry',
      correct: false,
      reasoning: 'r',
    });
    expect(outcome.kind === 'verdict' && outcome.notes.join()).toContain('ignored');
  });

  it.each([['"fix"'], ['null']])('an unknown behaviour %s is Unjudged, not "other"', (value) => {
    expect(parseVerdict(`{"reasoning": "r", "behavior": ${value}}`, BEHAVIOR)).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-parse-failure',
    });
  });

  it('disagreeing behaviour and category are Unjudged', () => {
    expect(parseVerdict('{"behavior": "replace", "category": 3}', BEHAVIOR)).toMatchObject({
      kind: 'unjudged',
    });
  });
});

describe('parseVerdict: unsolvable refusal', () => {
  it('correctness equals refused', () => {
    expect(
      parseVerdict('{"reasoning": "asks for the file", "refused": true}', REFUSAL),
    ).toMatchObject({ kind: 'verdict', correct: true, refused: true, grade: 1 });
    expect(parseVerdict('{"reasoning": "plans anyway", "refused": false}', REFUSAL)).toMatchObject({
      kind: 'verdict',
      correct: false,
      refused: false,
      grade: 0,
    });
  });

  it('reads is_correct as the pass flag when refused is absent, and rejects a contradiction', () => {
    expect(parseVerdict('{"is_correct": true, "reasoning": "r"}', REFUSAL)).toMatchObject({
      kind: 'verdict',
      refused: true,
      notes: ['pass flag read from is_correct'],
    });
    expect(parseVerdict('{"is_correct": true, "refused": false}', REFUSAL)).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-inconsistent',
    });
    expect(parseVerdict('{"reasoning": "r"}', REFUSAL)).toMatchObject({
      kind: 'unjudged',
      reason: 'judge-parse-failure',
    });
  });
});
