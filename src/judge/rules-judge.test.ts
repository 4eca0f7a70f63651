import { describe, expect, it } from 'vitest';
import type { Case, SplitName, ToolCall } from '../dataset/case.js';
import { SETTINGS } from '../settings/index.js';
import { runChecks } from './checks/index.js';
import { makeCase, makeTool } from './checks/make-case.fixture.js';
import type { JudgeInput } from './judge.js';
import { RULES_PROMPT_VERSION, rulesJudge, rulesVerdict } from './rules-judge.js';
import { stepWiseGrade } from './rules-grades.js';
import type { ErrorFlags, Verdict } from './verdict.js';

const tools = [
  makeTool('search_hotels', 'find hotels in a city', ['city']),
  makeTool('get_price', 'price of a hotel', ['hotel_id']),
  makeTool('book_hotel', 'book a hotel room', ['hotel_id']),
  makeTool('search_hotels_pro', 'premium hotel search (distractor)', ['city']),
  makeTool('play_music', 'play a song', ['song']),
];
const chain: ToolCall[] = [
  { name: 'search_hotels', arguments: { city: 'Rome' } },
  { name: 'get_price', arguments: { hotel_id: '<hotel_id returned by step 1>' } },
  { name: 'book_hotel', arguments: { hotel_id: '<hotel_id returned by step 1>' } },
];
const holisticCase = (split: SplitName): Case =>
  makeCase(split, {
    input: {
      tools:
        split === 'holistic_efficiency'
          ? tools.map((tool, index) => ({ ...tool, cost: index + 1 }))
          : tools,
    },
    reference: {
      plan: '1. search 2. price 3. book',
      toolChain: chain,
      extraneousToolNames: split.endsWith('extraneous') ? ['search_hotels_pro'] : [],
      unsolvableType: split === 'holistic_unsolvable' ? 'tool_removal' : null,
    },
  });
const node = (name: string, args: Record<string, unknown>) => ({
  name,
  parameter_description: args,
  reason: 'r',
});
const planText = (...nodes: ReturnType<typeof node>[]) =>
  JSON.stringify({ plan: '1. do it', tool_chain: nodes });
const perfect = planText(
  node('search_hotels', { city: 'Rome' }),
  node('get_price', { hotel_id: '<id from step 1>' }),
  node('book_hotel', { hotel_id: '<id from step 1>' }),
);

function judgeText(caseItem: Case, text: string): Verdict {
  const parsed = SETTINGS[caseItem.split].parseAnswer(text, caseItem.input);
  return rulesVerdict(caseItem.split, parsed, runChecks(caseItem, parsed));
}
const flagged = (verdict: Verdict) =>
  verdict.errors.flatMap((on, index) => (on ? [`E${index + 1}`] : []));

describe('rules judge: holistic splits', () => {
  it.each<[string, SplitName, string, { correct: boolean; grade: number; flags: string[] }]>([
    ['perfect plan', 'holistic_planning', perfect, { correct: true, grade: 1, flags: [] }],
    [
      'perfect plan (extraneous)',
      'holistic_tool_extraneous',
      perfect,
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'perfect plan (efficiency)',
      'holistic_efficiency',
      perfect,
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'hallucinated tool',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('reserve_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.4, flags: ['E2', 'E6'] },
    ],
    [
      'distractor',
      'holistic_tool_extraneous',
      planText(
        node('search_hotels_pro', { city: 'Rome' }),
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 2>' }),
        node('book_hotel', { hotel_id: '<id from step 2>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'argument problem',
      'holistic_planning',
      planText(
        node('search_hotels', { town: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'unknown optional argument only',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome', stars: 4 }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.8, flags: ['E5'] },
    ],
    [
      'the same unknown argument in an extra read',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('search_hotels', { city: 'Rome', stars: 4 }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.8, flags: ['E5'] },
    ],
    [
      'missing step',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E2'] },
    ],
    [
      'wrong order',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E4'] },
    ],
    [
      'broken data flow',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<price from step 2>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E4'] },
    ],
    [
      'unrelated plan',
      'holistic_planning',
      planText(node('play_music', { song: 'Volare' })),
      { correct: false, grade: 0, flags: ['E1', 'E2'] },
    ],
    [
      'refusal on a solvable split',
      'holistic_planning',
      '{"status": "REJECT", "reason": "cannot"}',
      { correct: false, grade: 0, flags: ['E2'] },
    ],
    [
      'text-only refusal on a solvable split',
      'holistic_planning',
      '{"plan": "This task cannot be completed.", "tool_chain": []}',
      { correct: false, grade: 0, flags: ['E2'] },
    ],
    [
      'dearer valid plan (efficiency): cost is measured, not an error',
      'holistic_efficiency',
      planText(
        node('search_hotels_pro', { city: 'Rome' }),
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 2>' }),
        node('book_hotel', { hotel_id: '<id from step 2>' }),
      ),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'an extra read-only lookup is harmless',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('search_hotels', { city: 'Rome' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'an unrequested write',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Rome' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<second id from step 1>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E3'] },
    ],
    [
      'a value contradicting the query',
      'holistic_planning',
      planText(
        node('search_hotels', { city: 'Milan' }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'a read moved before what it needs',
      'holistic_planning',
      planText(
        node('get_price', { hotel_id: '<id from step 2>' }),
        node('search_hotels', { city: 'Rome' }),
        node('book_hotel', { hotel_id: '<id from step 2>' }),
      ),
      { correct: false, grade: 0.6, flags: ['E4', 'E6'] },
    ],
  ])('%s', (_name, split, text, expected) => {
    const verdict = judgeText(holisticCase(split), text);
    expect({ correct: verdict.correct, grade: verdict.grade, flags: flagged(verdict) }).toEqual(
      expected,
    );
    if (!verdict.correct) expect(verdict.grade).toBeLessThanOrEqual(0.8);
  });

  it('flags a plan with any E flag as incorrect and never grades it above 0.8', () => {
    const verdict = judgeText(
      holisticCase('holistic_planning'),
      planText(
        node('search_hotels', { city: 'Rome', extra: 1 }),
        node('get_price', { hotel_id: '<id from step 1>' }),
        node('book_hotel', { hotel_id: '<id from step 1>' }),
      ),
    );
    expect(verdict).toMatchObject({ correct: false, grade: 0.8, refused: false });
    expect(verdict.reasoning).toContain('search_hotels.extra unknown-argument');
  });
});

describe('rules judge: parse failures', () => {
  it.each<SplitName>([
    'holistic_planning',
    'holistic_unsolvable',
    'step_wise_planning',
    'step_wise_tool_broken',
  ])('%s: incorrect, grade 0, no flag, not refused', (split) => {
    const caseItem = split.startsWith('holistic')
      ? holisticCase(split)
      : makeCase(split, { input: { tools } });
    const verdict = judgeText(caseItem, 'I cannot do this, the task cannot be completed.');
    expect(verdict).toMatchObject({
      correct: false,
      grade: 0,
      errors: [false, false, false, false, false, false],
      refused: false,
    });
    if (split === 'step_wise_tool_broken') expect(verdict.behavior).toBe('other');
  });
});

describe('rules judge: step-wise splits', () => {
  const reference = [
    { toolCalls: [{ name: 'get_price', arguments: { hotel_id: 'H7' } }] },
    { toolCalls: [{ name: 'book_hotel', arguments: { hotel_id: 'H7' } }] },
  ];
  const stepCase = (split: SplitName) =>
    makeCase(split, {
      input: { tools, horizon: 2 },
      reference: {
        groundTruthSteps: reference,
        remainingSteps: [{ toolCalls: [], text: 'Tell the user.' }],
        extraneousToolNames: ['search_hotels_pro'],
      },
    });
  const steps = (...list: [string | null, Record<string, unknown>][]) =>
    JSON.stringify({
      predicted_steps: list.map(([tool, args]) => ({ thought: 'next', tool, arguments: args })),
    });

  it.each<[string, SplitName, string, { correct: boolean; grade: number; flags: string[] }]>([
    [
      'oracle-like',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'h7' }], ['book_hotel', { hotel_id: 'H7' }]),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'oracle-like (extraneous)',
      'step_wise_tool_extraneous',
      steps(['get_price', { hotel_id: 'H7' }], ['book_hotel', { hotel_id: '<id from action 1>' }]),
      { correct: true, grade: 1, flags: [] },
    ],
    [
      'hallucinated tool',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H7' }], ['reserve', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.2, flags: ['E6'] },
    ],
    [
      'distractor',
      'step_wise_tool_extraneous',
      steps(['search_hotels_pro', { city: 'Rome' }], ['book_hotel', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'concrete argument mismatch',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H8' }], ['book_hotel', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.6, flags: ['E5'] },
    ],
    [
      'premature conclusion',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H7' }], [null, {}]),
      { correct: false, grade: 0.4, flags: ['E2'] },
    ],
    [
      'too few steps',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.4, flags: ['E2'] },
    ],
    [
      'too many steps',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H7' }], ['book_hotel', { hotel_id: 'H7' }], [null, {}]),
      { correct: false, grade: 0.2, flags: ['E3'] },
    ],
    [
      'right tools, wrong order',
      'step_wise_planning',
      steps(['book_hotel', { hotel_id: 'H7' }], ['get_price', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.2, flags: ['E4'] },
    ],
    [
      'first tool off the reference path',
      'step_wise_planning',
      steps(['play_music', { song: 'x' }], ['book_hotel', { hotel_id: 'H7' }]),
      { correct: false, grade: 0.2, flags: ['E1'] },
    ],
    [
      'later tool off the reference path',
      'step_wise_planning',
      steps(['get_price', { hotel_id: 'H7' }], ['play_music', { song: 'x' }]),
      { correct: false, grade: 0.6, flags: ['E4'] },
    ],
    [
      'refusal',
      'step_wise_planning',
      '{"status": "REJECT", "reason": "no"}',
      { correct: false, grade: 0, flags: ['E2'] },
    ],
    [
      'several majors',
      'step_wise_planning',
      steps(['play_music', { song: 'x' }], ['reserve', {}], [null, {}]),
      { correct: false, grade: 0, flags: ['E1', 'E3', 'E6'] },
    ],
  ])('%s', (_name, split, text, expected) => {
    const verdict = judgeText(stepCase(split), text);
    expect({ correct: verdict.correct, grade: verdict.grade, flags: flagged(verdict) }).toEqual(
      expected,
    );
  });

  it.each<[ErrorFlags, number]>([
    [[false, false, false, false, false, false], 1],
    [[false, false, false, false, true, false], 0.6],
    [[false, false, false, true, false, false], 0.6],
    [[false, false, false, true, true, false], 0.4],
    [[false, true, false, false, false, false], 0.4],
    [[false, true, false, true, false, false], 0.4],
    [[true, false, false, false, false, false], 0.2],
    [[false, false, true, true, true, false], 0.2],
    [[false, false, false, false, false, true], 0.2],
    [[true, false, false, false, false, true], 0],
    [[true, true, true, true, true, true], 0],
  ])('step-wise rubric %j → %s', (errors, grade) => {
    expect(stepWiseGrade(errors)).toBe(grade);
  });
});

describe('rules judge: tool-broken', () => {
  const brokenCase = makeCase('step_wise_tool_broken', {
    input: { tools: [...tools, makeTool('get_price_backup', 'backup prices', ['hotel_id'])] },
    reference: {
      brokenToolName: 'get_price',
      replacementTool: makeTool('get_price_backup', 'backup prices', ['hotel_id']),
      groundTruthSteps: [
        { toolCalls: [{ name: 'get_price_backup', arguments: { hotel_id: 'H7' } }] },
      ],
      remainingSteps: [{ toolCalls: [{ name: 'book_hotel', arguments: { hotel_id: 'H7' } }] }],
    },
  });
  const one = (tool: string | null) =>
    JSON.stringify({
      predicted_steps: [{ thought: 'the price tool failed', tool, arguments: { hotel_id: 'H7' } }],
    });

  it.each<
    [
      string,
      string,
      { correct: boolean; grade: number; behavior: string; flags: string[]; refused: boolean },
    ]
  >([
    [
      'replace',
      one('get_price_backup'),
      { correct: true, grade: 1, behavior: 'replace', flags: [], refused: false },
    ],
    [
      'a write the reference makes later is no alternative to a broken read',
      one('book_hotel'),
      { correct: false, grade: 0, behavior: 'other', flags: [], refused: false },
    ],
    [
      'retry',
      one('get_price'),
      { correct: false, grade: 0, behavior: 'retry', flags: [], refused: false },
    ],
    [
      'refuse',
      '{"status": "REJECT", "reason": "the price tool is down"}',
      { correct: false, grade: 0, behavior: 'refuse', flags: [], refused: true },
    ],
    [
      'other: unrelated listed tool',
      one('play_music'),
      { correct: false, grade: 0, behavior: 'other', flags: [], refused: false },
    ],
    [
      'other: hallucinated tool',
      one('get_price_v2'),
      { correct: false, grade: 0, behavior: 'other', flags: ['E6'], refused: false },
    ],
  ])('%s', (_name, text, expected) => {
    const verdict = judgeText(brokenCase, text);
    expect({
      correct: verdict.correct,
      grade: verdict.grade,
      behavior: verdict.behavior,
      flags: flagged(verdict),
      refused: verdict.refused,
    }).toEqual(expected);
  });
});

describe('rules judge: unsolvable', () => {
  const caseItem = holisticCase('holistic_unsolvable');
  it.each<[string, string, { correct: boolean; grade: number; refused: boolean; flags: string[] }]>(
    [
      [
        'explicit REJECT',
        '{"status": "REJECT", "reason": "the booking tool is not available"}',
        { correct: true, grade: 1, refused: true, flags: [] },
      ],
      [
        'refusal language without tools',
        '{"plan": "I cannot complete this: no tool can book hotels.", "tool_chain": []}',
        { correct: true, grade: 1, refused: true, flags: [] },
      ],
      ['a plan anyway', perfect, { correct: false, grade: 0, refused: false, flags: [] }],
      [
        'a plan with an invented tool',
        planText(node('magic_booker', {})),
        { correct: false, grade: 0, refused: false, flags: ['E6'] },
      ],
      [
        'a contingency is not a refusal',
        '{"plan": "If the hotel is unavailable, notify the user.", "tool_chain": []}',
        { correct: false, grade: 0, refused: false, flags: [] },
      ],
    ],
  )('%s', (_name, text, expected) => {
    const verdict = judgeText(caseItem, text);
    expect({
      correct: verdict.correct,
      grade: verdict.grade,
      refused: verdict.refused,
      flags: flagged(verdict),
    }).toEqual(expected);
  });
});

describe('rulesJudge', () => {
  it('is a rules judge that returns the mapping verdict at no cost', async () => {
    const caseItem = holisticCase('holistic_planning');
    const parsed = SETTINGS.holistic_planning.parseAnswer(perfect, caseItem.input);
    const input: JudgeInput = {
      case: caseItem,
      plannerPrompt: { messages: [], promptVersion: 'p' },
      rawAnswer: perfect,
      parsed,
      findings: runChecks(caseItem, parsed),
      repeat: 0,
    };
    const result = await rulesJudge.judge(input);
    expect(rulesJudge).toMatchObject({ id: 'rules', kind: 'rules', version: RULES_PROMPT_VERSION });
    expect(result).toMatchObject({
      usage: null,
      attempts: 0,
      cached: false,
      promptVersion: 'rules@2',
      outcome: { kind: 'verdict', correct: true, grade: 1, refused: false },
    });
  });
});
