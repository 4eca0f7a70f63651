import { describe, expect, it } from 'vitest';
import type { ReferenceStep } from '../../dataset/case.js';
import type { ParsedAnswer, PredictedStep } from '../../settings/attempt.js';
import { makeCase } from './make-case.fixture.js';
import { nextKCheck } from './next-k.js';

describe('nextKCheck (D9)', () => {
  const reference: ReferenceStep[] = [
    { toolCalls: [{ name: 'search', arguments: { q: 'Rome hotels' } }] },
    { toolCalls: [{ name: 'book', arguments: { id: '<id from step 1>' } }] },
    { toolCalls: [], text: 'Tell the user.' },
  ];
  const caseItem = makeCase('step_wise_planning', {
    input: { horizon: 3 },
    reference: { groundTruthSteps: reference },
  });
  const step = (name: string | null, args: unknown = {}): PredictedStep => ({
    thought: '',
    toolCall: name ? { name, arguments: args } : null,
  });
  const steps = (...list: PredictedStep[]): ParsedAnswer => ({
    kind: 'steps',
    steps: list,
    schemaIssues: [],
  });

  it.each<[string, ParsedAnswer, object]>([
    [
      'all match',
      steps(step('search', { q: 'rome HOTELS' }), step('book', { id: 'H1' }), step(null)),
      {
        predicted: 3,
        toolMatches: [true, true, true],
        argumentMatches: [true, null, null],
        allToolsMatch: true,
      },
    ],
    [
      'wrong argument value',
      steps(step('search', { q: 'Paris' }), step('book'), step(null)),
      {
        toolMatches: [true, true, true],
        argumentMatches: [false, null, null],
        allToolsMatch: true,
      },
    ],
    [
      'swapped order',
      steps(step('book'), step('search'), step(null)),
      {
        toolMatches: [false, false, true],
        argumentMatches: [null, null, null],
        allToolsMatch: false,
      },
    ],
    [
      'concludes early',
      steps(step('search', { q: 'Rome hotels' }), step(null), step(null)),
      { toolMatches: [true, false, true], allToolsMatch: false },
    ],
    [
      'too few steps',
      steps(step('search', { q: 'Rome hotels' })),
      { predicted: 1, toolMatches: [true, false, false], allToolsMatch: false },
    ],
    [
      'extra steps are ignored here',
      steps(step('search', { q: 'Rome hotels' }), step('book'), step(null), step('x')),
      { predicted: 4, allToolsMatch: true },
    ],
    [
      'a tool where the reference answers in text',
      steps(step('search', { q: 'Rome hotels' }), step('book'), step('email')),
      { toolMatches: [true, true, false] },
    ],
    [
      'refusal predicts nothing',
      { kind: 'refusal', reason: '', schemaIssues: [] },
      { predicted: 0, toolMatches: [false, false, false], allToolsMatch: false },
    ],
  ])('%s', (_name, parsed, expected) => {
    expect(nextKCheck.run(caseItem, parsed)).toMatchObject({ horizon: 3, ...expected });
  });

  it('is null on holistic splits and for a parse failure', () => {
    expect(nextKCheck.run(makeCase('holistic_planning'), steps(step('search')))).toBeNull();
    expect(nextKCheck.run(caseItem, { kind: 'parse_error', message: '' })).toBeNull();
  });

  it('compares against nothing when the ground truth is shorter than the horizon', () => {
    const broken = makeCase('step_wise_tool_broken', { input: { horizon: 1 } });
    expect(nextKCheck.run(broken, steps(step('backup')))).toMatchObject({
      toolMatches: [false],
      allToolsMatch: false,
    });
  });
});

describe('nextKCheck position details', () => {
  it('names the tools at each position and whether the reference uses them anywhere', () => {
    const caseItem = makeCase('step_wise_planning', {
      input: { horizon: 2 },
      reference: {
        groundTruthSteps: [{ toolCalls: [{ name: 'search', arguments: {} }] }, { toolCalls: [] }],
        remainingSteps: [{ toolCalls: [{ name: 'pay', arguments: {} }] }],
      },
    });
    const parsed: ParsedAnswer = {
      kind: 'steps',
      steps: [{ thought: '', toolCall: { name: 'pay', arguments: {} } }],
      schemaIssues: [],
    };
    expect(nextKCheck.run(caseItem, parsed)).toMatchObject({
      predictedTools: ['pay', null],
      referenceTools: ['search', null],
      inReference: [true, false],
    });
  });
});
