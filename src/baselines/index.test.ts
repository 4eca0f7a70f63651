import { describe, expect, it } from 'vitest';
import { SPLITS, type Case, type SplitName, type ToolCall } from '../dataset/case.js';
import { runChecks } from '../judge/checks/index.js';
import { makeCase, makeTool } from '../judge/checks/make-case.fixture.js';
import { rulesVerdict } from '../judge/rules-judge.js';
import { SETTINGS } from '../settings/index.js';
import { BASELINES } from './index.js';

const tools = [
  makeTool('search_hotels', 'Find hotels in a city.', ['city'], ['city'], 1),
  makeTool('get_price', 'Price of one hotel.', ['hotel_id'], ['hotel_id'], 2),
  makeTool(
    'book_hotel',
    'Book a room in a hotel.',
    ['hotel_id', 'check_in'],
    ['hotel_id', 'check_in'],
    3,
  ),
  makeTool('search_hotels_plus', 'Premium hotel finder.', ['city'], ['city'], 4),
  makeTool('get_price_backup', 'Backup price service.', ['hotel_id'], ['hotel_id'], 2),
];
const chain: ToolCall[] = [
  { name: 'search_hotels', arguments: { city: 'Rome' }, reason: 'find candidates' },
  {
    name: 'get_price',
    arguments: { hotel_id: '<hotel_id returned by step 1>' },
    reason: 'compare',
  },
  {
    name: 'book_hotel',
    arguments: { hotel_id: '<hotel_id returned by step 1>', check_in: '2024-05-01' },
    reason: 'book',
  },
];
const query = 'Find a hotel in Rome, check its price and book it for 2024-05-01.';
const stepReference = [
  {
    toolCalls: [{ name: 'get_price', arguments: { hotel_id: 'H7' } }],
    text: 'price the hotel found',
  },
  { toolCalls: [{ name: 'book_hotel', arguments: { hotel_id: 'H7', check_in: '2024-05-01' } }] },
];

/** One hand-built case of each split. */
const CASES: Record<SplitName, Case> = {
  holistic_planning: makeCase('holistic_planning', {
    input: { query, tools: tools.slice(0, 3) },
    reference: { plan: '1. search 2. price 3. book', toolChain: chain },
  }),
  holistic_tool_extraneous: makeCase('holistic_tool_extraneous', {
    input: { query, tools: tools.slice(0, 4) },
    reference: { toolChain: chain, extraneousToolNames: ['search_hotels_plus'] },
  }),
  holistic_efficiency: makeCase('holistic_efficiency', {
    input: { query, tools: tools.slice(0, 4) },
    reference: { plan: 'cheapest', toolChain: chain },
  }),
  holistic_unsolvable: makeCase('holistic_unsolvable', {
    input: { query, tools: tools.slice(0, 2) },
    reference: {
      plan: 'No listed tool can book a room, so the request cannot be completed.',
      unsolvableType: 'tool_removal',
    },
  }),
  step_wise_planning: makeCase('step_wise_planning', {
    input: { query, tools: tools.slice(0, 3), horizon: 2 },
    reference: { groundTruthSteps: stepReference },
  }),
  step_wise_tool_extraneous: makeCase('step_wise_tool_extraneous', {
    input: { query, tools: tools.slice(0, 4), horizon: 1 },
    reference: {
      groundTruthSteps: stepReference.slice(0, 1),
      extraneousToolNames: ['search_hotels_plus'],
    },
  }),
  step_wise_tool_broken: makeCase('step_wise_tool_broken', {
    input: {
      query,
      tools,
      horizon: 1,
      trajectoryPrefix: [
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ name: 'get_price', arguments: { hotel_id: 'H7' } }],
        },
        { role: 'tool', text: 'Error 503: service unavailable', toolCalls: [] },
      ],
    },
    reference: {
      brokenToolName: 'get_price',
      replacementTool: tools[4]!,
      groundTruthSteps: [
        { toolCalls: [{ name: 'get_price_backup', arguments: { hotel_id: 'H7' } }] },
      ],
    },
  }),
};

function judge(caseItem: Case, text: string) {
  const parsed = SETTINGS[caseItem.split].parseAnswer(text, caseItem.input);
  return rulesVerdict(caseItem.split, parsed, runChecks(caseItem, parsed));
}

describe('BASELINES', () => {
  it('registers oracle, heuristic and refuse under their ids', () => {
    expect(Object.keys(BASELINES)).toEqual(['oracle', 'heuristic', 'refuse']);
    for (const [id, baseline] of Object.entries(BASELINES)) expect(baseline.id).toBe(id);
  });

  it('covers every split in the fixtures', () => {
    expect(Object.keys(CASES).sort()).toEqual([...SPLITS].sort());
  });
});

describe('oracle baseline', () => {
  it.each(SPLITS)('is judged correct on %s', (split) => {
    const verdict = judge(CASES[split], BASELINES.oracle.answer(CASES[split]));
    expect(verdict).toMatchObject({ correct: true, grade: 1 });
  });

  it('replays the reference chain and REJECTs with the reference explanation', () => {
    expect(JSON.parse(BASELINES.oracle.answer(CASES.holistic_planning))).toMatchObject({
      plan: '1. search 2. price 3. book',
      tool_chain: [
        {
          name: 'search_hotels',
          parameter_description: { city: 'Rome' },
          reason: 'find candidates',
        },
        {},
        {},
      ],
    });
    expect(JSON.parse(BASELINES.oracle.answer(CASES.holistic_unsolvable))).toEqual({
      status: 'REJECT',
      reason: 'No listed tool can book a room, so the request cannot be completed.',
    });
  });

  it('calls the replacement with the broken call arguments when a tool-broken case has no ground-truth step', () => {
    const bare = {
      ...CASES.step_wise_tool_broken,
      reference: { ...CASES.step_wise_tool_broken.reference, groundTruthSteps: [] },
    };
    expect(JSON.parse(BASELINES.oracle.answer(bare))).toEqual({
      predicted_steps: [
        {
          thought: 'switch to the replacement tool',
          tool: 'get_price_backup',
          arguments: { hotel_id: 'H7' },
        },
      ],
    });
    expect(judge(bare, BASELINES.oracle.answer(bare))).toMatchObject({
      correct: true,
      behavior: 'replace',
    });
  });
});

describe('refuse baseline', () => {
  it.each(SPLITS)('on %s is correct only when the split is unsolvable', (split) => {
    const verdict = judge(CASES[split], BASELINES.refuse.answer(CASES[split]));
    expect(verdict.correct).toBe(split === 'holistic_unsolvable');
    expect(verdict.refused).toBe(true);
  });

  it('says what it is', () => {
    expect(JSON.parse(BASELINES.refuse.answer(CASES.holistic_planning))).toEqual({
      status: 'REJECT',
      reason: expect.stringContaining('always-refuse baseline'),
    });
  });
});

describe('heuristic baseline across splits', () => {
  it.each(SPLITS)('answers %s with text its setting can parse', (split) => {
    const parsed = SETTINGS[split].parseAnswer(
      BASELINES.heuristic.answer(CASES[split]),
      CASES[split].input,
    );
    expect(parsed.kind).not.toBe('parse_error');
  });
});
