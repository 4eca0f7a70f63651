// ToolSandbox's own tool tests (upstream tests/tools/{contact,messaging,reminder,utilities}_test.py),
// the same cases and expected values, run on the port. Apple's licence: data/toolsandbox/LICENSE.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import { toDicts } from '../../src/execution/environments/toolsandbox/tools-common.js';
import { useClock } from '../../src/execution/environments/toolsandbox/tool-runtime.js';
import {
  bindArguments,
  ToolException,
} from '../../src/execution/environments/toolsandbox/toolbox.js';
import { TOOLS } from '../../src/execution/environments/toolsandbox/tools.js';
import type { Namespace } from '../../src/execution/environments/toolsandbox/schemas.js';

/** uuid.uuid5(uuid.NAMESPACE_URL, name). */
function uuid5(name: string): string {
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const hash = createHash('sha1').update(namespace).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const NOW = 1725278400; // the frozen clock, 2024-09-02T12:00:00Z
const ago = (days: number, hours: number, minutes: number, seconds: number) =>
  NOW - (((days * 24 + hours) * 60 + minutes) * 60 + seconds);

function call(context: ExecutionContext, name: string, args: Record<string, unknown> = {}) {
  const tool = TOOLS.get(name)!;
  return tool.run(context, bindArguments(tool, args));
}
function raises(context: ExecutionContext, name: string, args: Record<string, unknown>): string {
  try {
    call(context, name, args);
  } catch (error) {
    if (error instanceof ToolException) return error.type;
    throw error;
  }
  return 'no exception';
}
const rows = (context: ExecutionContext, ns: Namespace) =>
  JSON.parse(JSON.stringify(toDicts(ns, context.getDatabase(ns)))) as Record<string, unknown>[];

const self = {
  person_id: uuid5('tests.tools.contact_test'),
  name: 'Tomas Haake',
  phone_number: '+11233344455',
  relationship: 'self',
  is_self: true,
};
const newContact = {
  name: 'Fredrik Thordendal',
  phone_number: '+12453344098',
  relationship: 'friend',
};

function contactWorld(): ExecutionContext {
  const context = new ExecutionContext();
  context.addToDatabase('contact', [self]);
  return context;
}

describe('contact tools (contact_test.py)', () => {
  it('adds a contact; a second self is a DuplicateError', () => {
    const context = contactWorld();
    call(context, 'add_contact', newContact);
    const added = rows(context, 'contact')[1]!;
    for (const [key, value] of Object.entries(newContact)) expect(added[key]).toBe(value);
    expect(raises(context, 'add_contact', { ...newContact, is_self: true })).toBe(
      'polars.exceptions.DuplicateError',
    );
  });

  it('modifies a contact, with its errors', () => {
    const context = contactWorld();
    const personId = uuid5('person_0');
    context.addToDatabase('contact', [{ ...newContact, person_id: personId, is_self: false }]);
    call(context, 'modify_contact', {
      person_id: personId,
      name: 'Fred',
      phone_number: '+11234567890',
      relationship: 'coworker',
    });
    const fred = rows(context, 'contact')
      .filter((r) => r.person_id === personId)
      .at(-1)!;
    expect([fred.name, fred.phone_number, fred.relationship]).toEqual([
      'Fred',
      '+11234567890',
      'coworker',
    ]);
    expect(raises(context, 'modify_contact', { person_id: personId })).toBe('ValueError');
    expect(raises(context, 'modify_contact', { person_id: 'fake id', name: 'Freddy' })).toBe(
      'polars.exceptions.NoDataError',
    );
    expect(raises(context, 'modify_contact', { person_id: personId, is_self: true })).toBe(
      'polars.exceptions.DuplicateError',
    );
    context.addToDatabase('contact', [{ ...newContact, person_id: personId, is_self: false }]);
    expect(raises(context, 'modify_contact', { person_id: personId, name: 'Freddy' })).toBe(
      'polars.exceptions.DuplicateError',
    );
  });

  it('removes a contact', () => {
    const context = contactWorld();
    expect(raises(context, 'remove_contact', { person_id: uuid5('wrong id') })).toBe(
      'polars.exceptions.NoDataError',
    );
    call(context, 'remove_contact', { person_id: self.person_id });
    expect(rows(context, 'contact')).toEqual([]);
  });

  it('searches contacts exactly and fuzzily', () => {
    const context = contactWorld();
    const search = (args: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(call(context, 'search_contacts', args)));
    expect(search({ person_id: self.person_id })).toEqual([self]);
    expect(search({ name: 'Tomas Nils Haake' })).toEqual([self]);
    expect(search({ phone_number: self.phone_number })).toEqual([self]);
    expect(search({ relationship: 'myself' })).toEqual([self]);
    expect(search({ is_self: true })).toEqual([self]);
    expect(raises(context, 'search_contacts', {})).toBe('ValueError');
    expect(search({ person_id: uuid5('wrong id') })).toHaveLength(0);
    expect(search({ relationship: 'friend' })).toHaveLength(0);
  });
});

const messages = [
  {
    message_id: uuid5('message_0'),
    sender_person_id: null,
    sender_phone_number: '+18307976530',
    recipient_person_id: uuid5('Tomas Haake'),
    recipient_phone_number: '+11233344455',
    content: 'Hey kid, you want some GPU?',
    creation_timestamp: ago(3, 4, 5, 6),
  },
  {
    message_id: uuid5('message_1'),
    sender_person_id: uuid5('Tomas Haake'),
    sender_phone_number: '+11233344455',
    recipient_person_id: uuid5('Homer S'),
    recipient_phone_number: '+10000000000',
    content: 'Things are proceeding as expected boss',
    creation_timestamp: ago(0, 1, 2, 3),
  },
  {
    message_id: uuid5('message_2'),
    sender_person_id: uuid5('Homer S'),
    sender_phone_number: '+10000000000',
    recipient_person_id: uuid5('Tomas Haake'),
    recipient_phone_number: '+11233344455',
    content: 'Good, keep me posted',
    creation_timestamp: ago(0, 0, 1, 2),
  },
];

function messagingWorld(): ExecutionContext {
  const context = contactWorld();
  context.addToDatabase('messaging', messages);
  return context;
}

describe('messaging tools (messaging_test.py)', () => {
  it('sends by phone number; an unknown recipient has no person id', () => {
    const context = messagingWorld();
    call(context, 'send_message_with_phone_number', {
      phone_number: newContact.phone_number,
      content: 'Test',
    });
    const sent = rows(context, 'messaging').at(-1)!;
    expect(sent).toMatchObject({
      sender_person_id: self.person_id,
      sender_phone_number: self.phone_number,
      recipient_person_id: null,
      recipient_phone_number: newContact.phone_number,
      content: 'Test',
      creation_timestamp: NOW,
    });
  });

  it('refuses to send with two self entries', () => {
    const context = messagingWorld();
    context.addToDatabase('contact', [{ ...newContact, is_self: true, person_id: 'test' }]);
    expect(
      raises(context, 'send_message_with_phone_number', {
        phone_number: newContact.phone_number,
        content: 'Test',
      }),
    ).toBe('polars.exceptions.DuplicateError');
  });

  it('sends to a contact found by name', () => {
    const context = messagingWorld();
    call(context, 'add_contact', newContact);
    const matched = call(context, 'search_contacts', { name: 'Fredrik' }) as Record<
      string,
      unknown
    >[];
    expect(matched).toHaveLength(1);
    const content = 'How is the album coming along';
    call(context, 'send_message_with_phone_number', {
      phone_number: matched[0]!.phone_number,
      content,
    });
    expect(rows(context, 'messaging').at(-1)).toMatchObject({
      sender_person_id: self.person_id,
      recipient_person_id: matched[0]!.person_id,
      recipient_phone_number: newContact.phone_number,
      content,
    });
  });

  it('searches messages', () => {
    const context = messagingWorld();
    const search = (args: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(call(context, 'search_messages', args)));
    expect(search({ message_id: uuid5('message_2') })).toEqual(messages.slice(-1));
    expect(search({ sender_person_id: uuid5('Homer S') })).toEqual(messages.slice(-1));
    expect(search({ sender_phone_number: '+10000000000' })).toEqual(messages.slice(-1));
    const toTomas = [messages[0], messages[2]];
    expect(search({ recipient_person_id: uuid5('Tomas Haake') })).toEqual(toTomas);
    expect(search({ recipient_phone_number: '+11233344455' })).toEqual(toTomas);
    expect(search({ content: 'Good, keep me posted' })).toEqual(messages.slice(-1));
    const lastDay = {
      creation_timestamp_upperbound: NOW,
      creation_timestamp_lowerbound: ago(1, 0, 0, 0),
    };
    expect(search(lastDay)).toEqual(messages.slice(-2));
  });
});

const reminders = [
  {
    reminder_id: uuid5('reminder_0'),
    content: 'Write tests',
    creation_timestamp: ago(10, 1, 2, 3),
    reminder_timestamp: ago(8, 4, 5, 6),
    latitude: null,
    longitude: null,
  },
  {
    reminder_id: uuid5('reminder_1'),
    content: 'Buy chocolate milk',
    creation_timestamp: ago(0, 1, 2, 3),
    reminder_timestamp: ago(-2, -4, -5, -6),
    latitude: 37.3237926356735,
    longitude: -122.03961770355414,
  },
];

function reminderWorld(): ExecutionContext {
  const context = new ExecutionContext();
  context.addToDatabase('reminder', reminders);
  return context;
}

describe('reminder tools (reminder_test.py)', () => {
  const reminderId = uuid5('reminder_1');

  it('adds a reminder', () => {
    const context = reminderWorld();
    const added = {
      content: 'Return chocolate milk',
      reminder_timestamp: ago(-4, -4, -5, -6),
      latitude: 37.3237926356735,
      longitude: -122.03961770355414,
    };
    call(context, 'add_reminder', added);
    expect(rows(context, 'reminder').at(-1)).toMatchObject(added);
  });

  it('removes a reminder', () => {
    const context = reminderWorld();
    call(context, 'remove_reminder', { reminder_id: reminderId });
    expect(rows(context, 'reminder').filter((r) => r.reminder_id === reminderId)).toEqual([]);
    expect(raises(context, 'remove_reminder', { reminder_id: 'This should raise error' })).toBe(
      'polars.exceptions.NoDataError',
    );
  });

  it('modifies a reminder and restamps its creation time', () => {
    const context = reminderWorld();
    const target = () =>
      rows(context, 'reminder')
        .filter((r) => r.reminder_id === reminderId)
        .at(-1)!;
    const created = target().creation_timestamp as number;
    call(context, 'modify_reminder', { reminder_id: reminderId, content: 'Test' });
    expect(target().content).toBe('Test');
    expect(target().creation_timestamp as number).toBeGreaterThan(created);
    call(context, 'modify_reminder', {
      reminder_id: reminderId,
      reminder_timestamp: NOW,
      latitude: null,
      longitude: null,
    });
    expect(target()).toMatchObject({ reminder_timestamp: NOW, latitude: null, longitude: null });
    expect(raises(context, 'modify_reminder', { reminder_id: reminderId })).toBe('ValueError');
    const missing = { reminder_id: 'This should raise error', content: 'This should raise error' };
    expect(raises(context, 'modify_reminder', missing)).toBe('polars.exceptions.NoDataError');
    context.addToDatabase('reminder', context.getDatabase('reminder').slice(-1));
    expect(raises(context, 'modify_reminder', { reminder_id: reminderId, content: 'x' })).toBe(
      'polars.exceptions.DuplicateError',
    );
  });

  it('searches reminders', () => {
    const context = reminderWorld();
    const target = rows(context, 'reminder').find((r) => r.reminder_id === reminderId)!;
    const search = (args: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(call(context, 'search_reminder', args)));
    const created = target.creation_timestamp as number;
    const due = target.reminder_timestamp as number;
    expect(search({ reminder_id: reminderId })).toEqual([target]);
    expect(search({ content: target.content })).toEqual([target]);
    expect(
      search({
        creation_timestamp_lowerbound: created - 10,
        creation_timestamp_upperbound: created + 10,
      }),
    ).toEqual([target]);
    expect(
      search({ reminder_timestamp_lowerbound: due - 10, reminder_timestamp_upperbound: due + 10 }),
    ).toEqual([target]);
    expect(search({ latitude: target.latitude })).toEqual([target]);
    expect(search({ longitude: target.longitude })).toEqual([target]);
    expect(raises(context, 'search_reminder', {})).toBe('ValueError');
    expect(search({ reminder_id: uuid5('wrong id') })).toHaveLength(0);
    expect(search({ content: 'Hello' })).toHaveLength(0);
    expect(search({ reminder_timestamp_lowerbound: due + 10 })).toHaveLength(0);
  });
});

describe('utility tools (utilities_test.py)', () => {
  const info = { year: 2024, month: 3, day: 25, hour: 22, minute: 2, second: 30 };
  const timestamp = Date.UTC(2024, 2, 25, 22, 2, 30) / 1000; // naive datetime in UTC
  const context = new ExecutionContext();

  it('converts between timestamps and calendar fields', () => {
    expect(call(context, 'timestamp_to_datetime_info', { timestamp })).toEqual({
      ...info,
      isoweekday: 1,
    });
    expect(Number(call(context, 'datetime_info_to_timestamp', info))).toBe(timestamp);
  });

  it('converts units as pint does', () => {
    expect(
      raises(context, 'unit_conversion', { amount: 1.0, from_unit: 'BEEG', to_unit: 'Yoshi' }),
    ).toBe('pint.errors.UndefinedUnitError');
    expect(
      raises(context, 'unit_conversion', { amount: 1.0, from_unit: 'meter', to_unit: 'kg' }),
    ).toBe('pint.errors.DimensionalityError');
    const mile = call(context, 'unit_conversion', {
      amount: 1.0,
      from_unit: 'meter',
      to_unit: 'mile',
    });
    expect(Number(mile)).toBe(0.0006213711922373339);
    const degF = call(context, 'unit_conversion', {
      amount: 0.0,
      from_unit: 'degC',
      to_unit: 'degF',
    });
    expect(Number(degF)).toBeCloseTo(32.0, 9);
  });

  it('searches US holidays', () => {
    const holiday = (args: Record<string, unknown>) => {
      const value = call(context, 'search_holiday', args);
      return value === null ? null : Number(value);
    };
    expect(holiday({ holiday_name: 'Axlearn Day' })).toBeNull();
    expect(holiday({ holiday_name: 'Christmas Day', year: 2024 })).toBe(
      Date.UTC(2024, 11, 25) / 1000,
    );
    expect(holiday({ holiday_name: 'new years', year: 2024 })).toBe(Date.UTC(2024, 0, 1) / 1000);
    expect(holiday({ holiday_name: 'new years eve', year: 2024 })).toBeNull();
  });
});

describe('the clock', () => {
  it('is frozen at the scenarios instant, and a session can set another', () => {
    const context = new ExecutionContext();
    expect(Number(call(context, 'get_current_timestamp'))).toBe(NOW);
    useClock(context, '2025-01-01T00:00:00Z');
    expect(Number(call(context, 'get_current_timestamp'))).toBe(1735689600);
    const christmas = Number(call(context, 'search_holiday', { holiday_name: 'Christmas Day' }));
    expect(christmas).toBe(Date.UTC(2025, 11, 25) / 1000);
    expect(() => useClock(context, 'yesterday')).toThrow(/not an ISO 8601 instant/);
  });
});
