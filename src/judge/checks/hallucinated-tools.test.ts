import { describe, expect, it } from 'vitest';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { hallucinatedToolsCheck } from './hallucinated-tools.js';
import { makeCase, makeTool } from './make-case.fixture.js';

const listed = makeCase('holistic_planning', {
  input: { tools: [makeTool('search_flights', 'find flights'), makeTool('book_flight', 'book')] },
});
const unlisted = makeCase('holistic_planning', {
  input: { tools: [], systemPrompt: 'You may call get_weather(city) and send_email(to, body).' },
});
const plan = (...names: string[]): ParsedAnswer => ({
  kind: 'plan',
  plan: '',
  toolChain: names.map((name) => ({ name, arguments: {} })),
  schemaIssues: [],
});

describe('hallucinatedToolsCheck (D2)', () => {
  it.each<[string, ReturnType<typeof makeCase>, ParsedAnswer, string[]]>([
    ['only listed tools', listed, plan('search_flights', 'book_flight'), []],
    ['an invented tool', listed, plan('search_flights', 'cancel_flight'), ['cancel_flight']],
    ['case matters', listed, plan('Search_Flights'), ['Search_Flights']],
    ['spelling matters', listed, plan('search_flight'), ['search_flight']],
    ['surrounding spaces matter', listed, plan('book_flight '), ['book_flight ']],
    [
      'distinct names once, in order of first use',
      listed,
      plan('x', 'search_flights', 'y', 'x'),
      ['x', 'y'],
    ],
    [
      'steps answer',
      listed,
      {
        kind: 'steps',
        steps: [
          { thought: '', toolCall: { name: 'zap', arguments: {} } },
          { thought: '', toolCall: null },
        ],
        schemaIssues: [],
      },
      ['zap'],
    ],
    ['refusal calls nothing', listed, { kind: 'refusal', reason: '', schemaIssues: [] }, []],
    ['parse failure calls nothing', listed, { kind: 'parse_error', message: 'x' }, []],
    [
      'no tool list: names spelled out in the system prompt count as listed',
      unlisted,
      plan('get_weather', 'send_email'),
      [],
    ],
    [
      'no tool list: other names are hallucinated',
      unlisted,
      plan('get_weather', 'weather', 'send'),
      ['weather', 'send'],
    ],
  ])('%s', (_name, caseItem, parsed, names) => {
    expect(hallucinatedToolsCheck.run(caseItem, parsed)).toEqual({ names });
  });
});
