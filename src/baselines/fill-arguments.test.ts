import { describe, expect, it } from 'vitest';
import type { Tool } from '../dataset/case.js';
import { fillArguments, kindOf, visibleValues } from './fill-arguments.js';

describe('visibleValues', () => {
  it('finds each kind once, without reusing the digits of emails, URLs and dates', () => {
    const text =
      'Meet "Grand Hotel" in Paris on May 3rd, 2024 or 12/05/2024; order ORD-123, 3 nights, 250.50 euros, see https://x.io/a?b=1 and mail bob.s@x.co.uk. I like it.';
    expect(visibleValues(text)).toEqual({
      email: ['bob.s@x.co.uk'],
      date: ['May 3rd, 2024', '12/05/2024'],
      url: ['https://x.io/a?b=1'],
      quoted: ['Grand Hotel'],
      id: ['ORD-123'],
      number: [3, 250.5],
      proper: ['Grand Hotel', 'Paris'],
    });
  });

  it('finds nothing in nothing', () => {
    expect(visibleValues('')).toEqual({
      email: [],
      date: [],
      url: [],
      quoted: [],
      id: [],
      number: [],
      proper: [],
    });
  });
});

describe('kindOf', () => {
  it.each<[string, unknown, string | null]>([
    ['recipient_email', { type: 'string' }, 'email'],
    ['check_in', { type: 'string' }, 'date'],
    ['departureDate', {}, 'date'],
    ['order_id', {}, 'id'],
    ['q', {}, 'text'],
    ['search_query', {}, 'text'],
    ['city', {}, 'proper'],
    ['to', {}, 'proper'],
    ['nights', { type: 'integer' }, 'number'],
    ['threshold', { type: 'number' }, 'number'],
    ['flag', { type: 'boolean' }, null],
  ])('%s → %s', (name, schema, kind) => {
    expect(kindOf(name, schema)).toBe(kind);
  });
});

describe('fillArguments', () => {
  const tool: Tool = {
    name: 'book_trip',
    description: 'book',
    parameters: {
      type: 'object',
      properties: {
        destination: { type: 'string' },
        depart_date: { type: 'string' },
        return_date: { type: 'string' },
        travellers: { type: 'integer' },
        cabin: { type: 'string', enum: ['economy', 'business'] },
        contact_email: { type: 'string' },
        loyalty_flag: { type: 'boolean' },
        note: { type: 'string' },
      },
      required: [
        'destination',
        'depart_date',
        'return_date',
        'travellers',
        'cabin',
        'contact_email',
        'loyalty_flag',
      ],
    },
  };

  it('fills required arguments from the text, in order of appearance, and leaves placeholders otherwise', () => {
    const query =
      'Book 2 business seats to Lisbon from 2024-06-01 to 2024-06-09, confirmation to me@site.org.';
    expect(fillArguments(tool, query, query)).toEqual({
      destination: 'Lisbon',
      depart_date: '2024-06-01',
      return_date: '2024-06-09',
      travellers: 2,
      cabin: 'business',
      contact_email: 'me@site.org',
      loyalty_flag: '<loyalty_flag from an earlier step>',
    });
  });

  it('uses placeholders when the text holds nothing fitting', () => {
    expect(fillArguments(tool, 'plan a trip', 'plan a trip')).toMatchObject({
      destination: '<destination from an earlier step>',
      travellers: '<travellers from an earlier step>',
      cabin: '<cabin from an earlier step>',
    });
  });

  it('fills nothing for a tool without a schema', () => {
    expect(fillArguments({ name: 'ping', description: '' }, 'x', 'x')).toEqual({});
  });
});
