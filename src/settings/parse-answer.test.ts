import { describe, expect, it } from 'vitest';
import { parseHolisticAnswer, parseStepsAnswer } from './parse-answer.js';

const plan = {
  plan: '1. find\n2. book',
  tool_chain: [{ name: 'find_flights', parameter_description: { origin: 'LIS' }, reason: 'look' }],
};

describe('parseHolisticAnswer', () => {
  it.each([
    ['exact JSON', JSON.stringify(plan), []],
    [
      'a json code fence',
      `\`\`\`json\n${JSON.stringify(plan)}\n\`\`\``,
      ['JSON surrounded by other text or a code fence'],
    ],
    [
      'prose around JSON',
      `Here is my plan:\n${JSON.stringify(plan)}\nHope it helps.`,
      ['JSON surrounded by other text or a code fence'],
    ],
    ['a thinking block first', `<think>hmm {"plan": "wrong"}</think>${JSON.stringify(plan)}`, []],
    [
      'near-JSON with single quotes and a trailing comma',
      "{'plan': '1. find\\n2. book', 'tool_chain': [{'name': 'find_flights', 'parameter_description': {'origin': 'LIS'}, 'reason': 'look'},]}",
      ['answer was not valid JSON and had to be repaired'],
    ],
  ])('reads %s', (_name, text, issues) => {
    const parsed = parseHolisticAnswer(text);
    expect(parsed.kind).toBe('plan');
    if (parsed.kind !== 'plan') return;
    expect(parsed.toolChain).toEqual([
      { name: 'find_flights', arguments: { origin: 'LIS' }, reason: 'look' },
    ]);
    expect(parsed.schemaIssues).toEqual(issues);
  });

  it('accepts common key spellings and records them as schema issues', () => {
    const parsed = parseHolisticAnswer(
      JSON.stringify({
        plan: ['find', 'book'],
        tool_calls: [
          { function: { name: 'find_flights', arguments: '{"origin":"LIS"}' } },
          { tool: 'book_flight', args: { id: 1 } },
        ],
      }),
    );
    expect(parsed).toMatchObject({
      kind: 'plan',
      plan: 'find\nbook',
      toolChain: [
        { name: 'find_flights', arguments: { origin: 'LIS' } },
        { name: 'book_flight', arguments: { id: 1 } },
      ],
    });
    expect(parsed.kind === 'plan' && parsed.schemaIssues).toEqual([
      'tool chain given as "tool_calls"',
    ]);
  });

  it.each([
    ['a JSON refusal', '{"status": "REJECT", "reason": "no payment tool"}', 'no payment tool'],
    [
      'a fenced refusal',
      '```json\n{"status":"reject","reason":"the screenshot is missing"}\n```',
      'the screenshot is missing',
    ],
    [
      'a plain-text REJECT',
      'REJECT: the account number was never given',
      'the account number was never given',
    ],
  ])('reads %s as an explicit refusal', (_name, text, reason) => {
    expect(parseHolisticAnswer(text)).toMatchObject({ kind: 'refusal', reason });
  });

  it.each([
    ['an empty answer', '', 'empty answer'],
    [
      'prose only',
      'I think you should first search for flights and then book one.',
      'no JSON object found in the answer',
    ],
    [
      'prose that mentions rejecting',
      'We should not reject this request; search flights first.',
      'no JSON object found in the answer',
    ],
    [
      'JSON without plan or chain',
      '{"answer": 42}',
      'the JSON has neither "plan" nor "tool_chain"',
    ],
    [
      'a chain that is not a list',
      '{"plan": "x", "tool_chain": "find then book"}',
      '"tool_chain" is not a list',
    ],
  ])('never turns %s into a refusal or a plan', (_name, text, message) => {
    expect(parseHolisticAnswer(text)).toEqual({ kind: 'parse_error', message });
  });
});

describe('parseStepsAnswer', () => {
  const steps = {
    predicted_steps: [{ thought: 'book now', tool: 'book_flight', arguments: { flight_id: 'F1' } }],
  };

  it('reads the requested shape', () => {
    expect(parseStepsAnswer(JSON.stringify(steps), 1)).toEqual({
      kind: 'steps',
      steps: [
        { thought: 'book now', toolCall: { name: 'book_flight', arguments: { flight_id: 'F1' } } },
      ],
      schemaIssues: [],
    });
  });

  it.each([
    [
      'a bare list',
      JSON.stringify(steps.predicted_steps),
      'answer is a bare list, not {"predicted_steps": [...]}',
    ],
    [
      'a single step object',
      JSON.stringify(steps.predicted_steps[0]),
      'a single step object instead of a list',
    ],
    [
      'numbered keys',
      JSON.stringify({
        step2: { tool: 'b' },
        step1: { tool: 'book_flight', arguments: { flight_id: 'F1' } },
      }),
      'steps given as numbered keys',
    ],
    [
      'OpenAI tool_calls',
      JSON.stringify({
        steps: [
          {
            role: 'assistant',
            tool_calls: [
              {
                type: 'function',
                function: { name: 'book_flight', arguments: '{"flight_id":"F1"}' },
              },
            ],
          },
        ],
      }),
      'steps given as "steps"',
    ],
  ])('reads %s', (_name, text, issue) => {
    const parsed = parseStepsAnswer(text, 1);
    expect(parsed.kind).toBe('steps');
    if (parsed.kind !== 'steps') return;
    expect(parsed.steps[0]!.toolCall).toEqual({
      name: 'book_flight',
      arguments: { flight_id: 'F1' },
    });
    expect(parsed.schemaIssues).toContain(issue);
  });

  it('keeps a text-only step as a step without a tool, and flags a wrong step count', () => {
    const parsed = parseStepsAnswer(
      JSON.stringify({
        predicted_steps: [
          { thought: 'done', tool: null, arguments: {}, content: 'Your flight is booked.' },
        ],
      }),
      2,
    );
    expect(parsed).toMatchObject({
      kind: 'steps',
      steps: [{ thought: 'done', toolCall: null, content: 'Your flight is booked.' }],
      schemaIssues: ['expected 2 step(s), got 1'],
    });
  });

  it('reads a refusal, and never reads garbage as one', () => {
    expect(parseStepsAnswer('{"status":"REJECT","reason":"the service is gone"}', 1)).toMatchObject(
      { kind: 'refusal' },
    );
    expect(parseStepsAnswer('Sorry, something went wrong', 1)).toEqual({
      kind: 'parse_error',
      message: 'no JSON object found in the answer',
    });
    expect(parseStepsAnswer('{"predicted_steps": []}', 1)).toEqual({
      kind: 'parse_error',
      message: 'the answer lists no step',
    });
  });
});
