import { describe, expect, it } from 'vitest';
import { executed, shopRecord } from './make-source.fixture.js';
import { removePii } from './pii.js';

describe('removePii', () => {
  it('replaces e-mails, phones, cards and IPs by one placeholder per value, everywhere in the record', () => {
    const record = {
      ...shopRecord('pii'),
      query:
        'I am ana@example.com, call me on +1 415-555-0199. Card 4111 1111 1111 1111, order #W1.',
      system_prompt: 'Agent on host 10.0.0.12.',
    };
    record.messages = [
      ...executed(
        'p1',
        'find_user_by_email',
        { email: 'ana@example.com' },
        'ana_17 (ana@example.com)',
      ),
      ...record.messages,
    ];
    const { record: clean, found } = removePii(record);
    expect(clean.query).toBe('I am <EMAIL_1>, call me on <PHONE_1>. Card <CARD_1>, order #W1.');
    expect(clean.system_prompt).toBe('Agent on host <IP_1>.');
    const first = clean.messages[0]!;
    expect(first.role === 'assistant' && first.tool_calls[0]!.arguments).toEqual({
      email: '<EMAIL_1>',
    });
    expect(clean.messages[1]).toMatchObject({
      role: 'tool',
      content: 'ana_17 (<EMAIL_1>)',
      tool_call_id: 'p1',
    });
    expect(found).toEqual({ EMAIL: 1, PHONE: 1, CARD: 1, IP: 1 });
    // Ids, amounts, order numbers and dates are not PII.
    expect(JSON.stringify(clean.messages)).toContain('#W1');
    expect(removePii(shopRecord('plain')).found).toEqual({ EMAIL: 1 });
  });
});
