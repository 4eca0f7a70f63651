/**
 * ToolSandbox's messaging tools (`tools/messaging.py`): send a message by phone number (needs
 * cellular service and exactly one self contact; stamped with the world's clock) and search the
 * messages (content fuzzily, WRatio >= 50; timestamps by bounds; the rest exactly).
 */
import { getSetting } from './tools-setting.js';
import { validatePhoneNumber } from './phone-number.js';
import { runtimeOf } from './tool-runtime.js';
import { searchContacts } from './tools-contact.js';
import {
  DUPLICATE,
  filterRows,
  param,
  toDicts,
  validateTimestamp,
  type Criterion,
} from './tools-common.js';
import { ToolException, type Tool } from './toolbox.js';

const agent: Tool['visibleTo'] = ['agent'];
const str = { types: ['str' as const] };
const float = { types: ['float' as const] };
const floatOrNotGiven = { types: ['float' as const], notGiven: true };

const sendMessage: Tool = {
  name: 'send_message_with_phone_number',
  visibleTo: agent,
  parameters: [param('phone_number', str), param('content', str)],
  run(context, args) {
    validatePhoneNumber(args.phone_number);
    if (!getSetting(context, 'cellular'))
      throw new ToolException('ConnectionError', 'Cellular service is not enabled');
    const messageId = runtimeOf(context).newId();
    const self = searchContacts(context, { is_self: true });
    if (self.length !== 1)
      throw new ToolException(
        DUPLICATE,
        `1 and only 1 self entry should exist in contacts database, instead found ${self.length}`,
      );
    const recipient = searchContacts(context, { phone_number: args.phone_number });
    context.addToDatabase('messaging', [
      {
        message_id: messageId,
        sender_person_id: self[0]!.person_id as string,
        sender_phone_number: self[0]!.phone_number as string,
        recipient_person_id: recipient.length === 0 ? null : (recipient[0]!.person_id as string),
        recipient_phone_number: args.phone_number as string,
        content: args.content as string,
        creation_timestamp: runtimeOf(context).now,
      },
    ]);
    return messageId;
  },
};

const TEXT_COLUMNS = [
  'message_id',
  'sender_person_id',
  'sender_phone_number',
  'recipient_person_id',
  'recipient_phone_number',
  'content',
];

const searchMessages: Tool = {
  name: 'search_messages',
  visibleTo: agent,
  parameters: [
    ...TEXT_COLUMNS.map((name) => param(name, str, 'not_given')),
    param('creation_timestamp_lowerbound', float, 'not_given'),
    param('creation_timestamp_upperbound', float, 'not_given'),
  ],
  run(context, args) {
    validatePhoneNumber(args.sender_phone_number);
    validatePhoneNumber(args.recipient_phone_number);
    for (const bound of ['creation_timestamp_lowerbound', 'creation_timestamp_upperbound'])
      validateTimestamp(args[bound], bound, floatOrNotGiven);
    const criteria: Criterion[] = [
      ...TEXT_COLUMNS.map((name): Criterion => [
        name,
        args[name],
        name === 'content' ? { fuzzy: 50 } : 'exact',
      ]),
      ['creation_timestamp', args.creation_timestamp_lowerbound, 'gte'],
      ['creation_timestamp', args.creation_timestamp_upperbound, 'lte'],
    ];
    return toDicts('messaging', filterRows(context.getDatabase('messaging'), criteria));
  },
};

/** The two messaging tools. */
export const MESSAGING_TOOLS: Tool[] = [sendMessage, searchMessages];
