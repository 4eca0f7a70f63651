/**
 * ToolSandbox's contact tools (`tools/contact.py`): add, modify, remove and search the contact
 * book. A name or relationship is matched fuzzily (WRatio >= 90), the rest exactly; one contact at
 * most may be the user (`is_self`).
 */
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './frame.js';
import { validatePhoneNumber } from './phone-number.js';
import { runtimeOf } from './tool-runtime.js';
import {
  DUPLICATE,
  filterRows,
  param,
  removeWhere,
  toDicts,
  uniqueRow,
  type Criterion,
} from './tools-common.js';
import { ToolException, validateType, type Tool } from './toolbox.js';

const agent: Tool['visibleTo'] = ['agent'];
const str = { types: ['str' as const] };
const bool = { types: ['bool' as const] };

/** `search_contacts(...)` as the other tools call it (undefined: NOT_GIVEN). */
export function searchContacts(
  context: ExecutionContext,
  args: Record<string, unknown>,
): Record<string, unknown>[] {
  validatePhoneNumber(args.phone_number);
  const criteria: Criterion[] = [
    ['person_id', args.person_id, 'exact'],
    ['name', args.name, { fuzzy: 90 }],
    ['phone_number', args.phone_number, 'exact'],
    ['relationship', args.relationship, { fuzzy: 90 }],
    ['is_self', args.is_self, 'exact'],
  ];
  return toDicts('contact', filterRows(context.getDatabase('contact'), criteria));
}

const SELF_EXISTS = 'Self entry already exists. Cannot add another one.';

const addContact: Tool = {
  name: 'add_contact',
  visibleTo: agent,
  parameters: [
    param('name', str),
    param('phone_number', str),
    param('relationship', { types: ['str'], none: true }, { default: null }),
    param('is_self', bool, { default: false }),
  ],
  run(context, args) {
    validatePhoneNumber(args.phone_number);
    const personId = runtimeOf(context).newId();
    if (args.is_self && searchContacts(context, { is_self: true }).length > 0)
      throw new ToolException(DUPLICATE, SELF_EXISTS);
    context.addToDatabase('contact', [
      {
        person_id: personId,
        name: args.name as string,
        phone_number: args.phone_number as string,
        relationship: args.relationship as string | null,
        is_self: args.is_self as boolean,
      },
    ]);
    return personId;
  },
};

const FIELDS = ['name', 'phone_number', 'relationship', 'is_self'] as const;

const modifyContact: Tool = {
  name: 'modify_contact',
  visibleTo: agent,
  parameters: [
    param('person_id', str),
    param('name', str, 'not_given'),
    param('phone_number', str, 'not_given'),
    param('relationship', str, 'not_given'),
    param('is_self', bool, 'not_given'),
  ],
  run(context, args) {
    if (FIELDS.every((field) => args[field] === undefined))
      throw new ToolException(
        'ValueError',
        'No update information given. At least one new field should be provided among ' +
          '[name, phone_number, relationship, is_self] in order to modify contact',
      );
    validatePhoneNumber(args.phone_number);
    const self = searchContacts(context, { is_self: true });
    if (self.length > 0 && args.is_self && self[0]!.person_id !== args.person_id)
      throw new ToolException(DUPLICATE, SELF_EXISTS);
    const personId = args.person_id as string;
    const entry: Row = { ...uniqueRow(context, 'contact', 'person_id', personId) };
    for (const field of FIELDS)
      if (args[field] !== undefined) entry[field] = args[field] as string | boolean;
    removeWhere(context, 'contact', 'person_id', personId);
    context.addToDatabase('contact', [entry]);
    return null;
  },
};

const removeContact: Tool = {
  name: 'remove_contact',
  visibleTo: agent,
  parameters: [param('person_id', str)],
  run(context, args) {
    validateType(args.person_id, 'person_id', 'str');
    removeWhere(context, 'contact', 'person_id', args.person_id as string);
    return null;
  },
};

// search_contacts is not @typechecked upstream: its parameters carry no annotation
const searchContactsTool: Tool = {
  name: 'search_contacts',
  visibleTo: agent,
  parameters: ['person_id', 'name', 'phone_number', 'relationship', 'is_self'].map((name) => ({
    name,
    required: false,
  })),
  run: (context, args) => searchContacts(context, args),
};

/** The four contact tools. */
export const CONTACT_TOOLS: Tool[] = [addContact, modifyContact, removeContact, searchContactsTool];
