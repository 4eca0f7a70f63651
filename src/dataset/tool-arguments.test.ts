import { describe, expect, it } from 'vitest';
import type { Tool } from './case.js';
import { argumentSchemaProblems, hasJsonType, isListedTool } from './tool-arguments.js';

describe('hasJsonType', () => {
  it.each<[unknown, string[], boolean]>([
    ['x', ['string'], true],
    [3, ['integer'], true],
    [3.5, ['integer'], false],
    [3.5, ['number'], true],
    [Number.NaN, ['number'], false],
    ['3', ['number'], false],
    [null, ['null'], true],
    [null, ['object'], false],
    [[], ['array'], true],
    [[], ['object'], false],
    [{}, ['object'], true],
    [true, ['boolean'], true],
    ['x', ['number', 'string'], true],
  ])('%j is %j → %s', (value, types, expected) => {
    expect(hasJsonType(value, types)).toBe(expected);
  });
});

// The shape of tau2's book_reservation schema (nested arrays of objects, enums, integers).
const book: Tool = {
  name: 'book_reservation',
  description: 'Book a reservation.',
  parameters: {
    type: 'object',
    properties: {
      user_id: { type: 'string' },
      cabin: { type: 'string', enum: ['business', 'economy', 'basic_economy'] },
      flights: {
        type: 'array',
        items: {
          type: 'object',
          properties: { flight_number: { type: 'string' }, date: { type: 'string' } },
          required: ['flight_number', 'date'],
        },
      },
      payment_methods: {
        type: 'array',
        items: {
          type: 'object',
          properties: { payment_id: { type: 'string' }, amount: { type: 'integer' } },
          required: ['payment_id', 'amount'],
        },
      },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      tags: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
      meta: { type: 'object', additionalProperties: { type: 'number' } },
      mode: { const: 'live' },
      count: { type: 'integer', nullable: true },
    },
    required: ['user_id', 'flights'],
  },
};

describe('argumentSchemaProblems (nested)', () => {
  const problems = (args: unknown, skip?: (value: unknown) => boolean) =>
    argumentSchemaProblems(book, args, skip ? { skip } : {}).map(
      (problem) => `${problem.kind}:${problem.path}`,
    );
  it.each<[string, unknown, string[]]>([
    [
      'valid, nested',
      {
        user_id: 'u',
        cabin: 'economy',
        flights: [{ flight_number: 'HAT1', date: '2024-05-01' }],
        payment_methods: [{ payment_id: 'p', amount: 10 }],
      },
      [],
    ],
    [
      'a nested required name missing',
      { user_id: 'u', flights: [{ flight_number: 'HAT1' }] },
      ['missing-required:flights[0].date'],
    ],
    [
      'a nested wrong type',
      { user_id: 'u', flights: [], payment_methods: [{ payment_id: 'p', amount: '10' }] },
      ['wrong-type:payment_methods[0].amount'],
    ],
    [
      'a nested unknown name on a closed object',
      { user_id: 'u', flights: [{ flight_number: 'H', date: 'd', seat: '1A' }] },
      ['unknown-argument:flights[0].seat'],
    ],
    [
      'an array where an object list is expected holds a wrong item',
      { user_id: 'u', flights: ['HAT1'] },
      ['wrong-type:flights[0]'],
    ],
    ['anyOf: one branch fits', { user_id: 'u', flights: [], note: null }, []],
    ['anyOf: no branch fits', { user_id: 'u', flights: [], note: 3 }, ['wrong-type:note']],
    [
      'tuple items are positional',
      { user_id: 'u', flights: [], tags: ['a', 'b'] },
      ['wrong-type:tags[1]'],
    ],
    [
      'additionalProperties as a schema types every extra name',
      { user_id: 'u', flights: [], meta: { a: 1, b: 'x' } },
      ['wrong-type:meta.b'],
    ],
    ['const', { user_id: 'u', flights: [], mode: 'test' }, ['not-in-enum:mode']],
    ['nullable admits null', { user_id: 'u', flights: [], count: null }, []],
    ['everything missing', {}, ['missing-required:user_id', 'missing-required:flights']],
    ['not an object', 'user_id=u', ['not-an-object:']],
  ])('%s', (_name, args, expected) => {
    expect(problems(args)).toEqual(expected);
  });

  it('skips what the caller accepts as it stands, at any depth', () => {
    const skip = (value: unknown) => typeof value === 'string' && value.startsWith('<');
    expect(
      problems(
        {
          user_id: 'u',
          flights: [{ flight_number: 'H', date: '<date from step 1>' }],
          payment_methods: '<from step 2>',
        },
        skip,
      ),
    ).toEqual([]);
  });
});

describe('isListedTool', () => {
  const tools: Tool[] = [{ name: 'get_order', description: '' }];
  it.each<[string, { tools: Tool[]; systemPrompt: string | null }, string, boolean]>([
    ['exact name', { tools, systemPrompt: null }, 'get_order', true],
    ['case differs', { tools, systemPrompt: null }, 'Get_Order', false],
    [
      'no tool list: a whole word of the system prompt',
      { tools: [], systemPrompt: 'You may call get_order(id) and cancel.' },
      'get_order',
      true,
    ],
    [
      'no tool list: part of a longer name is not listed',
      { tools: [], systemPrompt: 'Tools: get_order_status' },
      'get_order',
      false,
    ],
    ['no tool list, no system prompt', { tools: [], systemPrompt: null }, 'get_order', false],
  ])('%s', (_name, input, name, expected) => {
    expect(isListedTool(input, name)).toBe(expected);
  });
});
