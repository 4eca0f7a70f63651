import { describe, expect, it } from 'vitest';
import type { Tool } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { argumentProblems, argumentsCheck } from './arguments.js';
import type { ArgumentProblem } from './findings.js';
import { makeCase } from './make-case.fixture.js';

const book: Tool = {
  name: 'book_room',
  description: 'book a room',
  parameters: {
    type: 'object',
    properties: {
      hotel_id: { type: 'string' },
      nights: { type: 'integer' },
      price: { type: ['number', 'null'] },
      breakfast: { type: 'bool' },
      room: { type: 'string', enum: ['single', 'double'] },
      guests: { type: 'array' },
      notes: { description: 'free text, no type given' },
    },
    required: ['hotel_id', 'nights'],
  },
};
const open: Tool = {
  name: 'log',
  description: 'log',
  parameters: {
    type: 'object',
    properties: { message: { type: 'string' } },
    additionalProperties: true,
  },
};

describe('argumentProblems', () => {
  const kinds = (problems: ArgumentProblem[]) =>
    problems.map((problem) => `${problem.kind}:${problem.argument}`);
  it.each<[string, Tool, unknown, string[]]>([
    [
      'all good',
      book,
      {
        hotel_id: 'H1',
        nights: 2,
        room: 'double',
        price: null,
        breakfast: false,
        guests: ['a'],
        notes: 1,
      },
      [],
    ],
    ['not an object (string)', book, 'hotel_id=H1', ['not-an-object:']],
    ['not an object (array)', book, ['H1', 2], ['not-an-object:']],
    ['required missing', book, { nights: 2 }, ['missing-required:hotel_id']],
    [
      'unknown argument on a closed schema',
      book,
      { hotel_id: 'H1', nights: 2, color: 'red' },
      ['unknown-argument:color'],
    ],
    ['unknown argument on an open schema', open, { message: 'x', level: 'info' }, []],
    [
      'wrong type',
      book,
      { hotel_id: 7, nights: '2' },
      ['wrong-type:hotel_id', 'wrong-type:nights'],
    ],
    [
      'python-style type alias',
      book,
      { hotel_id: 'H', nights: 1, breakfast: 'yes' },
      ['wrong-type:breakfast'],
    ],
    ['enum violation', book, { hotel_id: 'H', nights: 1, room: 'Suite' }, ['not-in-enum:room']],
    [
      'placeholders satisfy any type and enum',
      book,
      {
        hotel_id: '<hotel_id returned by step 1>',
        nights: '{{step2.nights}}',
        room: '<room type from step 1>',
      },
      [],
    ],
    ['a prose placeholder', book, { hotel_id: 'the id returned by step 1', nights: 1 }, []],
    [
      'required present as null is a type problem, not a missing one',
      book,
      { hotel_id: null, nights: 1 },
      ['wrong-type:hotel_id'],
    ],
    [
      'hostile keys do not meet inherited members',
      book,
      JSON.parse(
        '{"hotel_id": "H", "nights": 1, "constructor": 1, "__proto__": {"x": 1}, "toString": "x"}',
      ),
      ['unknown-argument:constructor', 'unknown-argument:__proto__', 'unknown-argument:toString'],
    ],
    ['null arguments', book, null, ['not-an-object:']],
    ['a number as arguments', book, 42, ['not-an-object:']],
  ])('%s', (_name, tool, args, expected) => {
    expect(kinds(argumentProblems(tool, args, 1))).toEqual(expected);
  });

  it('records where and what', () => {
    expect(argumentProblems(book, { hotel_id: 'H', nights: 1.5 }, 3)).toEqual([
      {
        step: 3,
        tool: 'book_room',
        kind: 'wrong-type',
        argument: 'nights',
        detail: 'expected integer, got number',
      },
    ]);
  });
});

describe('argumentsCheck (D8)', () => {
  const noSchema: Tool = { name: 'ping', description: 'ping' };
  const caseItem = makeCase('holistic_planning', { input: { tools: [book, noSchema] } });
  const plan = (...calls: [string, unknown][]): ParsedAnswer => ({
    kind: 'plan',
    plan: '',
    toolChain: calls.map(([name, args]) => ({ name, arguments: args })),
    schemaIssues: [],
  });

  it.each<[string, ParsedAnswer, number, string[]]>([
    [
      'checks only listed tools with a schema',
      plan(['ping', 'x'], ['ghost', 5], ['book_room', { hotel_id: 'H', nights: 1 }]),
      1,
      [],
    ],
    [
      'positions count every call',
      plan(['ping', {}], ['book_room', {}]),
      1,
      ['2:missing-required:hotel_id', '2:missing-required:nights'],
    ],
    ['refusal checks nothing', { kind: 'refusal', reason: '', schemaIssues: [] }, 0, []],
    ['parse failure checks nothing', { kind: 'parse_error', message: '' }, 0, []],
  ])('%s', (_name, parsed, checkedCalls, problems) => {
    const result = argumentsCheck.run(caseItem, parsed);
    expect(result.checkedCalls).toBe(checkedCalls);
    expect(
      result.problems.map((problem) => `${problem.step}:${problem.kind}:${problem.argument}`),
    ).toEqual(problems);
  });
});
