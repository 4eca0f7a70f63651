import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { makeCase, makeTool } from './make-case.fixture.js';
import { costOf, planCostCheck } from './plan-cost.js';

const calls = (...names: string[]): ToolCall[] => names.map((name) => ({ name, arguments: {} }));
const priced = [
  makeTool('search', 's', [], [], 2),
  makeTool('book', 'b', [], [], 5),
  makeTool('search_and_book', 'sb', [], [], 4),
];
const efficiency = makeCase('holistic_efficiency', {
  input: { tools: priced },
  reference: { toolChain: calls('search', 'book') },
});
const plan = (...names: string[]): ParsedAnswer => ({
  kind: 'plan',
  plan: '',
  toolChain: calls(...names),
  schemaIssues: [],
});

describe('costOf', () => {
  it.each<[string, ToolCall[], number | null]>([
    ['sum of listed costs', calls('search', 'book'), 7],
    ['repeats cost again', calls('search', 'search'), 4],
    ['nothing costs nothing', [], 0],
    ['an unlisted tool cannot be priced', calls('search', 'teleport'), null],
  ])('%s', (_name, list, expected) => {
    expect(costOf(efficiency, list)).toBe(expected);
  });

  it('is null when some listed tool has no cost', () => {
    const mixed = makeCase('holistic_planning', {
      input: { tools: [makeTool('search', 's', [], [], 2), makeTool('book', 'b')] },
    });
    expect(costOf(mixed, calls('search'))).toBeNull();
  });
});

describe('planCostCheck (D10)', () => {
  it.each<[string, ParsedAnswer, object]>([
    [
      'same plan',
      plan('search', 'book'),
      { predictedSteps: 2, referenceSteps: 2, predictedCost: 7, referenceCost: 7 },
    ],
    [
      'cheaper composite',
      plan('search_and_book'),
      { predictedSteps: 1, referenceSteps: 2, predictedCost: 4, referenceCost: 7 },
    ],
    [
      'hallucinated tool',
      plan('search', 'magic'),
      { predictedSteps: 2, referenceSteps: 2, predictedCost: null, referenceCost: 7 },
    ],
    [
      'refusal',
      { kind: 'refusal', reason: '', schemaIssues: [] },
      { predictedSteps: 0, referenceSteps: 2, predictedCost: 0, referenceCost: 7 },
    ],
  ])('%s', (_name, parsed, expected) => {
    expect(planCostCheck.run(efficiency, parsed)).toEqual(expected);
  });

  it('counts predicted steps (text-only ones too) on step-wise splits, without costs', () => {
    const stepWise = makeCase('step_wise_planning', {
      input: { horizon: 2, tools: [makeTool('search', 's')] },
      reference: { groundTruthSteps: [{ toolCalls: calls('search') }, { toolCalls: [] }] },
    });
    const parsed: ParsedAnswer = {
      kind: 'steps',
      steps: [
        { thought: '', toolCall: calls('search')[0]! },
        { thought: 'done', toolCall: null },
      ],
      schemaIssues: [],
    };
    expect(planCostCheck.run(stepWise, parsed)).toEqual({
      predictedSteps: 2,
      referenceSteps: 2,
      predictedCost: null,
      referenceCost: null,
    });
  });

  it('is null without a reference or for a parse failure', () => {
    expect(planCostCheck.run(makeCase('holistic_unsolvable'), plan('search'))).toBeNull();
    expect(planCostCheck.run(efficiency, { kind: 'parse_error', message: '' })).toBeNull();
  });
});
