import { describe, expect, it } from 'vitest';
import type { Case, CaseFile, CaseInput, SplitName, TrajectoryMessage } from '../dataset/case.js';
import { makeCase, makeTool } from '../judge/checks/make-case.fixture.js';
import { SETTINGS } from '../settings/index.js';
import { heuristicAnswer, heuristicBaseline, succeededTools } from './heuristic.js';

const tools = [
  makeTool('search_hotels', 'Find hotels in a city.', ['city']),
  makeTool('get_hotel_price', 'Price of one hotel.', ['hotel_id']),
  makeTool('book_hotel', 'Book a room in a hotel.', ['hotel_id', 'check_in']),
  makeTool('send_email', 'Send an email message.', ['email', 'body']),
  makeTool('play_music', 'Play a song.', ['song']),
];
const query =
  'Find a hotel in Rome, check its price and book it for 2024-05-01. Then email the confirmation to ann@example.com.';
const holisticInput: CaseInput = {
  regime: 'Holistic',
  query,
  systemPrompt: null,
  tools,
  files: [],
  trajectoryPrefix: [],
  horizon: null,
};
const searched: TrajectoryMessage[] = [
  { role: 'user', text: query, toolCalls: [] },
  {
    role: 'assistant',
    text: '',
    toolCalls: [{ name: 'search_hotels', arguments: { city: 'Rome' } }],
  },
  { role: 'tool', text: '[{"hotel_id": "H7", "name": "Hotel Roma"}]', toolCalls: [] },
];
const stepInput = (horizon: 1 | 2 | 3, trajectoryPrefix = searched): CaseInput => ({
  ...holisticInput,
  regime: 'Step-wise',
  horizon,
  trajectoryPrefix,
});

describe('heuristic baseline: holistic', () => {
  const answer = JSON.parse(heuristicAnswer(holisticInput)) as {
    plan: string;
    tool_chain: { name: string; parameter_description: Record<string, unknown> }[];
  };

  it('takes the matching tools, read before write, in the order the request mentions them', () => {
    expect(answer.tool_chain.map((node) => node.name)).toEqual([
      'search_hotels',
      'get_hotel_price',
      'book_hotel',
      'send_email',
    ]);
    expect(answer.plan).toMatch(/^1\. Call search_hotels/);
  });

  it('copies visible values and leaves placeholders for data from earlier steps', () => {
    expect(answer.tool_chain.map((node) => node.parameter_description)).toEqual([
      { city: 'Rome' },
      { hotel_id: '<hotel_id from an earlier step>' },
      { hotel_id: '<hotel_id from an earlier step>', check_in: '2024-05-01' },
      { email: 'ann@example.com', body: query },
    ]);
  });

  it('caps the plan at eight tools', () => {
    const many = Array.from({ length: 12 }, (_, index) =>
      makeTool(`hotel_tool_${index}`, 'hotel helper'),
    );
    const chain = JSON.parse(heuristicAnswer({ ...holisticInput, tools: many }))
      .tool_chain as unknown[];
    expect(chain).toHaveLength(8);
  });

  const attached = `${query} Use the attached booking confirmation.`;
  it.each<[string, CaseInput]>([
    ['no tool shares a word', { ...holisticInput, query: 'Translate this poem into Latin.' }],
    ['no tool is listed', { ...holisticInput, tools: [] }],
    [
      'the request points at an attachment it does not carry',
      { ...holisticInput, query: attached },
    ],
  ])('refuses only when %s', (_name, input) => {
    expect(JSON.parse(heuristicAnswer(input))).toEqual({
      status: 'REJECT',
      reason: expect.stringContaining('heuristic baseline'),
    });
  });

  it('plans as usual when the attachment the request points at is there', () => {
    const file: CaseFile = {
      path: 'assets/confirmation.png',
      absolutePath: '/data/assets/confirmation.png',
      kind: 'image',
      mimeType: 'image/png',
      label: 'image',
      sha256: '0'.repeat(64),
      bytes: 0,
    };
    const input: CaseInput = { ...holisticInput, query: attached, files: [file] };
    expect(JSON.parse(heuristicAnswer(input)).tool_chain.length).toBeGreaterThan(0);
  });

  it('is deterministic', () => {
    expect(heuristicAnswer(holisticInput)).toBe(heuristicAnswer(structuredClone(holisticInput)));
  });
});

describe('heuristic baseline: step-wise', () => {
  it('takes the k best tools not yet called successfully, with values from the trajectory', () => {
    const answer = JSON.parse(heuristicAnswer(stepInput(2)));
    expect(answer.predicted_steps.map((step: { tool: string }) => step.tool)).toEqual([
      'get_hotel_price',
      'book_hotel',
    ]);
    expect(answer.predicted_steps[0].arguments).toEqual({ hotel_id: 'H7' });
  });

  it('keeps a tool whose call returned an error among the candidates, and drops it after a clean return', () => {
    const failed: TrajectoryMessage[] = [
      ...searched.slice(0, 2),
      { role: 'tool', text: 'Error: service unavailable', toolCalls: [] },
    ];
    const only = (prefix: TrajectoryMessage[]) =>
      JSON.parse(heuristicAnswer({ ...stepInput(1, prefix), tools: tools.slice(0, 1) }))
        .predicted_steps[0].tool;
    expect(only(failed)).toBe('search_hotels');
    expect(only(searched)).toBeNull();
  });

  it('reports back when fewer tools fit than actions asked', () => {
    const input = { ...stepInput(3), tools: tools.slice(0, 2) };
    const answer = JSON.parse(heuristicAnswer(input));
    expect(answer.predicted_steps.map((step: { tool: string | null }) => step.tool)).toEqual([
      'get_hotel_price',
      null,
      null,
    ]);
  });

  it.each<[string, TrajectoryMessage[], string[]]>([
    ['a call with a clean return', searched, ['search_hotels']],
    [
      'a call with an error return',
      [...searched.slice(0, 2), { role: 'tool', text: 'Timed out', toolCalls: [] }],
      [],
    ],
    ['a call without a recorded return', searched.slice(0, 2), ['search_hotels']],
    [
      'two calls, two returns in order',
      [
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { name: 'a', arguments: {} },
            { name: 'b', arguments: {} },
          ],
        },
        { role: 'tool', text: 'ok', toolCalls: [] },
        { role: 'tool', text: 'failed: invalid key', toolCalls: [] },
      ],
      ['a'],
    ],
  ])('succeededTools: %s', (_name, prefix, expected) => {
    expect([...succeededTools(prefix)]).toEqual(expected);
  });
});

describe('heuristic baseline: reads the planner-visible input only', () => {
  const CANARY = 'CANARY-7f3e9b-DO-NOT-LEAK';
  const poisoned = (split: SplitName): Case => {
    const base = makeCase(split, {
      input: split.startsWith('step') ? stepInput(2) : holisticInput,
    });
    const poisonCall = { name: CANARY, arguments: { value: CANARY }, reason: CANARY };
    return {
      ...base,
      reference: {
        plan: CANARY,
        toolChain: [poisonCall],
        groundTruthSteps: [{ toolCalls: [poisonCall], text: CANARY }],
        remainingSteps: [{ toolCalls: [poisonCall], text: CANARY }],
        unsolvableType: 'tool_removal',
        extraneousToolNames: [CANARY],
        brokenToolName: CANARY,
        replacementTool: makeTool(CANARY, CANARY, [CANARY]),
      },
      facets: {
        ...base.facets,
        source: CANARY,
        sourceSubset: CANARY,
        taskFamily: CANARY,
        taskCategory: CANARY,
        baseCaseKey: CANARY,
      },
      record: { plan: CANARY, tool_chain_json: CANARY, broken_tool_name: CANARY, source: CANARY },
    };
  };

  it.each(Object.keys(SETTINGS) as SplitName[])(
    '%s: the answer never contains the canary and still parses',
    (split) => {
      const caseItem = poisoned(split);
      const text = heuristicBaseline.answer(caseItem);
      expect(text).not.toContain(CANARY);
      expect(text).toBe(heuristicAnswer(caseItem.input));
      expect(SETTINGS[split].parseAnswer(text, caseItem.input).kind).not.toBe('parse_error');
    },
  );
});
