import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import {
  chainOrderCheck,
  consecutiveEdges,
  dataFlowEdges,
  longestCommonSubsequence,
} from './chain-order.js';
import { makeCase } from './make-case.fixture.js';

const calls = (...names: string[]): ToolCall[] => names.map((name) => ({ name, arguments: {} }));
const plan = (toolChain: ToolCall[]): ParsedAnswer => ({
  kind: 'plan',
  plan: '',
  toolChain,
  schemaIssues: [],
});

describe('longestCommonSubsequence', () => {
  it.each<[string[], string[], number]>([
    [[], [], 0],
    [['a'], [], 0],
    [['a', 'b', 'c'], ['a', 'b', 'c'], 3],
    [['b', 'a', 'c'], ['a', 'b', 'c'], 2],
    [['a', 'x', 'b', 'y', 'c'], ['a', 'b', 'c'], 3],
    [['c', 'b', 'a'], ['a', 'b', 'c'], 1],
    [['a', 'a', 'a'], ['a', 'b', 'a'], 2],
  ])('%j vs %j → %i', (left, right, lcs) => {
    expect(longestCommonSubsequence(left, right)).toBe(lcs);
  });
});

describe('edges', () => {
  it.each<[string, ToolCall[], string[]]>([
    [
      'angle placeholder',
      [
        { name: 'find', arguments: {} },
        { name: 'book', arguments: { id: '<hotel_id returned by step 1>' } },
      ],
      ['find→book'],
    ],
    [
      'template',
      [
        { name: 'find', arguments: {} },
        { name: 'pay', arguments: { x: '{{step1.total}}' } },
      ],
      ['find→pay'],
    ],
    [
      'hash and action',
      [
        { name: 'a', arguments: {} },
        { name: 'b', arguments: {} },
        { name: 'c', arguments: { p: 'output of #1', q: 'from action 2' } },
      ],
      ['a→c', 'b→c'],
    ],
    [
      'forward or self citations are ignored',
      [
        { name: 'a', arguments: { p: 'step 1' } },
        { name: 'b', arguments: { p: 'step 3' } },
      ],
      [],
    ],
    [
      'nested values are searched',
      [
        { name: 'a', arguments: {} },
        { name: 'b', arguments: { list: [{ v: 'result of step 1' }] } },
      ],
      ['a→b'],
    ],
    ['no citation', calls('a', 'b'), []],
  ])('data flow: %s', (_name, chain, expected) => {
    expect(dataFlowEdges(chain)).toEqual(expected);
  });

  it('consecutive pairs', () => {
    expect(consecutiveEdges(calls('a', 'b', 'c'))).toEqual(['a→b', 'b→c']);
    expect(consecutiveEdges(calls('a'))).toEqual([]);
  });
});

describe('chainOrderCheck (D7)', () => {
  const consecutive = makeCase('holistic_planning', {
    reference: { toolChain: calls('search', 'compare', 'book') },
  });
  const flow = makeCase('holistic_planning', {
    reference: {
      toolChain: [
        { name: 'search', arguments: { q: 'x' } },
        { name: 'price', arguments: { id: '<id from step 1>' } },
        { name: 'book', arguments: { id: '<id from step 1>' } },
      ],
    },
  });

  it.each<[string, ReturnType<typeof makeCase>, ToolCall[], object]>([
    [
      'same order, consecutive basis',
      consecutive,
      calls('search', 'compare', 'book'),
      { lcs: 3, lcsRatio: 1, edgeF1: 1, sharedEdgeRecall: 1, edgeBasis: 'consecutive' },
    ],
    [
      'swapped',
      consecutive,
      calls('compare', 'search', 'book'),
      { lcs: 2, lcsRatio: 2 / 3, edgeF1: 0, sharedEdgeRecall: 0, edgeBasis: 'consecutive' },
    ],
    [
      'one missing',
      consecutive,
      calls('search', 'book'),
      { lcs: 2, lcsRatio: 2 / 3, edgeF1: 0, sharedEdgeRecall: null, edgeBasis: 'consecutive' },
    ],
    [
      'empty answer',
      consecutive,
      [],
      { lcs: 0, lcsRatio: 0, edgeF1: 0, sharedEdgeRecall: null, edgeBasis: 'consecutive' },
    ],
    [
      'data flow matched',
      flow,
      [
        { name: 'search', arguments: {} },
        { name: 'book', arguments: { id: 'id of step 1' } },
        { name: 'price', arguments: { id: '#1' } },
      ],
      { lcs: 2, lcsRatio: 2 / 3, edgeF1: 1, sharedEdgeRecall: 1, edgeBasis: 'data-flow' },
    ],
    [
      'data flow half matched',
      flow,
      [
        { name: 'search', arguments: {} },
        { name: 'price', arguments: { id: 'step 1' } },
        { name: 'book', arguments: { id: 'step 2' } },
      ],
      { lcs: 3, lcsRatio: 1, edgeF1: 0.5, sharedEdgeRecall: 0.5, edgeBasis: 'data-flow' },
    ],
    [
      'a missing tool loses its edges, the rest stay linked',
      flow,
      [
        { name: 'search', arguments: {} },
        { name: 'book', arguments: { id: 'from step 1' } },
      ],
      { lcs: 2, lcsRatio: 2 / 3, edgeF1: 2 / 3, sharedEdgeRecall: 1, edgeBasis: 'data-flow' },
    ],
    [
      'answer cites no step: consecutive basis for both',
      flow,
      calls('search', 'price', 'book'),
      { lcs: 3, lcsRatio: 1, edgeF1: 1, sharedEdgeRecall: 1, edgeBasis: 'consecutive' },
    ],
  ])('%s', (_name, caseItem, chain, expected) => {
    expect(chainOrderCheck.run(caseItem, plan(chain))).toEqual(expected);
  });

  it('has no edge measure for a one-call reference', () => {
    const single = makeCase('holistic_planning', { reference: { toolChain: calls('search') } });
    expect(chainOrderCheck.run(single, plan(calls('search', 'book')))).toEqual({
      lcs: 1,
      lcsRatio: 1,
      edgeF1: null,
      sharedEdgeRecall: null,
      edgeBasis: 'consecutive',
    });
  });

  it('is null without a reference chain or for a parse failure', () => {
    expect(chainOrderCheck.run(makeCase('holistic_unsolvable'), plan(calls('a')))).toBeNull();
    expect(chainOrderCheck.run(consecutive, { kind: 'parse_error', message: 'x' })).toBeNull();
  });
});
