import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { makeCase } from './make-case.fixture.js';
import { toolSetCheck } from './tool-set.js';

const calls = (...names: string[]): ToolCall[] => names.map((name) => ({ name, arguments: {} }));
const plan = (...names: string[]): ParsedAnswer => ({
  kind: 'plan',
  plan: '',
  toolChain: calls(...names),
  schemaIssues: [],
});
const holistic = makeCase('holistic_planning', {
  reference: { toolChain: calls('search', 'search', 'book') },
});

describe('toolSetCheck (D6)', () => {
  it.each<
    [
      string,
      ParsedAnswer,
      { precision: number; recall: number; f1: number; missing: string[]; extra: string[] },
    ]
  >([
    [
      'identical multiset',
      plan('search', 'search', 'book'),
      { precision: 1, recall: 1, f1: 1, missing: [], extra: [] },
    ],
    [
      'order does not matter here',
      plan('book', 'search', 'search'),
      { precision: 1, recall: 1, f1: 1, missing: [], extra: [] },
    ],
    [
      'a repeat missing',
      plan('search', 'book'),
      { precision: 1, recall: 2 / 3, f1: 0.8, missing: ['search'], extra: [] },
    ],
    [
      'an extra call',
      plan('search', 'search', 'book', 'email'),
      { precision: 0.75, recall: 1, f1: 6 / 7, missing: [], extra: ['email'] },
    ],
    [
      'nothing shared',
      plan('email'),
      { precision: 0, recall: 0, f1: 0, missing: ['search', 'search', 'book'], extra: ['email'] },
    ],
    [
      'empty answer: precision 1 by definition, recall 0',
      plan(),
      { precision: 1, recall: 0, f1: 0, missing: ['search', 'search', 'book'], extra: [] },
    ],
    [
      'a refusal calls nothing',
      { kind: 'refusal', reason: '', schemaIssues: [] },
      { precision: 1, recall: 0, f1: 0, missing: ['search', 'search', 'book'], extra: [] },
    ],
  ])('%s', (_name, parsed, expected) => {
    expect(toolSetCheck.run(holistic, parsed)).toEqual({
      ...expected,
      f1: expect.closeTo(expected.f1, 9),
      recall: expect.closeTo(expected.recall, 9),
    });
  });

  it('compares step-wise answers with the ground-truth steps, and both empty is perfect', () => {
    const stepWise = makeCase('step_wise_planning', {
      input: { horizon: 2 },
      reference: { groundTruthSteps: [{ toolCalls: calls('search') }, { toolCalls: [] }] },
    });
    const steps: ParsedAnswer = {
      kind: 'steps',
      steps: [
        { thought: '', toolCall: calls('search')[0]! },
        { thought: '', toolCall: null },
      ],
      schemaIssues: [],
    };
    expect(toolSetCheck.run(stepWise, steps)).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    const textOnly = makeCase('step_wise_planning', {
      reference: { groundTruthSteps: [{ toolCalls: [], text: 'done' }] },
    });
    expect(
      toolSetCheck.run(textOnly, {
        kind: 'steps',
        steps: [{ thought: 'done', toolCall: null }],
        schemaIssues: [],
      }),
    ).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(toolSetCheck.run(textOnly, steps)).toMatchObject({
      precision: 0,
      recall: 1,
      f1: 0,
      extra: ['search'],
    });
  });

  it.each([
    ['no reference chain', makeCase('holistic_unsolvable'), plan('search')],
    ['no ground-truth steps', makeCase('step_wise_tool_broken'), plan('search')],
    ['parse failure', holistic, { kind: 'parse_error', message: 'x' } as ParsedAnswer],
  ])('is null with %s', (_name, caseItem, parsed) => {
    expect(toolSetCheck.run(caseItem, parsed)).toBeNull();
  });
});
