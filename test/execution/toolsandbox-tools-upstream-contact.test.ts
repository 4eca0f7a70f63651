// ToolSandbox's own tool tests (upstream tests/tools/contact_test.py and messaging_test.py), the
// same cases and expected values, run on the port. Apple's licence: data/toolsandbox/LICENSE.
import { describe, expect, it } from 'vitest';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import { ago, call, NOW, raises, rows, uuid5 } from '../helpers/toolsandbox-tools.js';

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
