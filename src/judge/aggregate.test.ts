import { describe, expect, it } from 'vitest';
import { aggregateVerdicts, type JudgeVote } from './aggregate.js';
import type { BrokenBehavior, ErrorFlags, Grade, Unjudged, Verdict } from './verdict.js';

const flags = (...codes: number[]): ErrorFlags =>
  [1, 2, 3, 4, 5, 6].map((n) => codes.includes(n)) as ErrorFlags;
const verdict = (
  correct: boolean,
  grade: Grade,
  errors: ErrorFlags = flags(),
  extra: Partial<Verdict> = {},
): Verdict => ({ kind: 'verdict', correct, grade, errors, reasoning: 'r', notes: [], ...extra });
const unjudged = (reason: Unjudged['reason']): Unjudged => ({
  kind: 'unjudged',
  reason,
  message: 'm',
});
const votes = (...outcomes: (Verdict | Unjudged)[]): JudgeVote[] =>
  outcomes.map((outcome, index) => ({ judge: `j${index + 1}`, outcome }));

describe('aggregateVerdicts', () => {
  it('takes the majority: 2 correct of 3', () => {
    const result = aggregateVerdicts(
      votes(verdict(true, 1), verdict(true, 1), verdict(false, 0.6, flags(4))),
    );
    expect(result.outcome).toMatchObject({
      kind: 'verdict',
      correct: true,
      grade: 1,
      errors: flags(),
    });
    expect(result).toMatchObject({
      members: 3,
      voters: 3,
      ties: { correct: false, grade: false, errors: [] },
    });
  });

  it('a 1–1 tie on correctness is not correct and is reported; tied flags are set; the lower median grade is kept', () => {
    // grades sorted: [0.6, 1]; n = 2 → lower median index floor((2-1)/2) = 0 → 0.6; tie because 0.6 ≠ 1.
    const result = aggregateVerdicts(votes(verdict(true, 1), verdict(false, 0.6, flags(5))));
    expect(result.outcome).toMatchObject({ correct: false, grade: 0.6, errors: flags(5) });
    expect(result.ties).toEqual({
      correct: true,
      grade: true,
      errors: ['E5'],
      behavior: false,
      refused: false,
    });
    expect(result.outcome.kind === 'verdict' && result.outcome.notes.join()).toContain(
      'correctness tied 1–1: not counted as correct',
    );
  });

  it('flags need half of the voters; the median of five is the third grade', () => {
    // grades sorted: [0.2, 0.4, 0.6, 0.8, 1] → index floor(4/2) = 2 → 0.6. E4: 3 of 5 → set; E5: 2 of 5 → not set.
    const result = aggregateVerdicts(
      votes(
        verdict(false, 0.4, flags(4, 5)),
        verdict(false, 0.6, flags(4)),
        verdict(false, 0.2, flags(4, 5)),
        verdict(true, 1),
        verdict(false, 0.8, flags(1)),
      ),
    );
    expect(result.outcome).toMatchObject({ correct: false, grade: 0.6, errors: flags(4) });
    expect(result.ties.grade).toBe(false);
  });

  it('notes an incorrect majority whose flags all fall short of half', () => {
    const result = aggregateVerdicts(
      votes(verdict(false, 0.6, flags(3)), verdict(false, 0.6, flags(4)), verdict(true, 1)),
    );
    expect(result.outcome).toMatchObject({ correct: false, errors: flags() });
    expect(result.outcome.kind === 'verdict' && result.outcome.notes.join()).toContain(
      'no error flag reached half',
    );
  });

  it('Unjudged members leave the pool', () => {
    const result = aggregateVerdicts(
      votes(unjudged('judge-call-failed'), verdict(true, 1), unjudged('judge-parse-failure')),
    );
    expect(result).toMatchObject({
      members: 3,
      voters: 1,
      outcome: { kind: 'verdict', correct: true },
    });
    expect(result.outcome.kind === 'verdict' && result.outcome.reasoning).toContain(
      '[j1] unjudged: m',
    );
  });

  it('all Unjudged gives Unjudged with the commonest reason', () => {
    const result = aggregateVerdicts(
      votes(
        unjudged('judge-call-failed'),
        unjudged('judge-parse-failure'),
        unjudged('judge-parse-failure'),
      ),
    );
    expect(result).toMatchObject({
      voters: 0,
      outcome: { kind: 'unjudged', reason: 'judge-parse-failure' },
    });
  });

  it('behaviour: plurality on the winning side, ties resolved towards the less favourable category', () => {
    const broken = (behavior: BrokenBehavior) =>
      verdict(
        behavior === 'replace' || behavior === 'alter',
        behavior === 'replace' || behavior === 'alter' ? 1 : 0,
        flags(),
        { behavior },
      );
    // replace, alter, retry: 2 of 3 pass → correct; passing side replace 1 vs alter 1 → tie → alter.
    const passing = aggregateVerdicts(votes(broken('replace'), broken('alter'), broken('retry')));
    expect(passing.outcome).toMatchObject({ correct: true, behavior: 'alter' });
    expect(passing.ties.behavior).toBe(true);
    // replace, retry: 1–1 → not correct; failing side has retry only.
    expect(aggregateVerdicts(votes(broken('replace'), broken('retry'))).outcome).toMatchObject({
      correct: false,
      behavior: 'retry',
    });
    // retry, retry, other, replace: 1 of 4 pass → failing; retry 2 beats other 1.
    expect(
      aggregateVerdicts(votes(broken('retry'), broken('retry'), broken('other'), broken('replace')))
        .outcome,
    ).toMatchObject({ behavior: 'retry', correct: false });
  });

  it('refusal: majority, and a tie is no refusal', () => {
    const refusal = (refused: boolean) => verdict(refused, refused ? 1 : 0, flags(), { refused });
    expect(
      aggregateVerdicts(votes(refusal(true), refusal(true), refusal(false))).outcome,
    ).toMatchObject({ refused: true, correct: true });
    const tie = aggregateVerdicts(votes(refusal(true), refusal(false)));
    expect(tie.outcome).toMatchObject({ refused: false, correct: false });
    expect(tie.ties.refused).toBe(true);
  });

  it('refuses an empty vote list (a bug, not an outcome)', () => {
    expect(() => aggregateVerdicts([])).toThrow(RangeError);
  });
});
