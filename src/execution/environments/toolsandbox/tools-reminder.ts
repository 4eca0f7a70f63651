/**
 * ToolSandbox's reminder tools (`tools/reminder.py`): add, modify, search and remove reminders.
 * Timestamps must lie in 1980..2050 and coordinates in range; a modification restamps the
 * reminder's creation time with the world's clock and moves it to the end of the table.
 */
import type { Row } from './frame.js';
import { runtimeOf } from './tool-runtime.js';
import {
  filterRows,
  param,
  removeWhere,
  toDicts,
  uniqueRow,
  validateDegrees,
  validateTimestamp,
  type Criterion,
} from './tools-common.js';
import { ToolException, type Annotation, type Tool } from './toolbox.js';

const agent: Tool['visibleTo'] = ['agent'];
const str = { types: ['str' as const] };
const float = { types: ['float' as const] };
const optionalFloat: Annotation = { types: ['float'], none: true };
const floatOrNotGiven: Annotation = { types: ['float'], notGiven: true };
const optionalFloatOrNotGiven: Annotation = { types: ['float'], none: true, notGiven: true };

/** A float column's cell: polars stores a bool or an int given for a float as a float. */
function asFloat(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return value;
  return Number(value);
}

const addReminder: Tool = {
  name: 'add_reminder',
  visibleTo: agent,
  parameters: [
    param('content', str),
    param('reminder_timestamp', float),
    param('latitude', optionalFloat, { default: null }),
    param('longitude', optionalFloat, { default: null }),
  ],
  run(context, args) {
    validateTimestamp(args.reminder_timestamp, 'reminder_timestamp', float);
    validateDegrees(args.latitude, 'latitude', optionalFloat, 90);
    validateDegrees(args.longitude, 'longitude', optionalFloat, 180);
    const runtime = runtimeOf(context);
    const reminderId = runtime.newId();
    context.addToDatabase('reminder', [
      {
        reminder_id: reminderId,
        content: args.content as string,
        creation_timestamp: runtime.now,
        reminder_timestamp: asFloat(args.reminder_timestamp)!,
        latitude: asFloat(args.latitude)!,
        longitude: asFloat(args.longitude)!,
      },
    ]);
    return reminderId;
  },
};

const modifyReminder: Tool = {
  name: 'modify_reminder',
  visibleTo: agent,
  parameters: [
    param('reminder_id', str),
    param('content', str, 'not_given'),
    param('reminder_timestamp', float, 'not_given'),
    param('latitude', optionalFloat, 'not_given'),
    param('longitude', optionalFloat, 'not_given'),
  ],
  run(context, args) {
    validateTimestamp(args.reminder_timestamp, 'reminder_timestamp', floatOrNotGiven);
    validateDegrees(args.latitude, 'latitude', optionalFloatOrNotGiven, 90);
    validateDegrees(args.longitude, 'longitude', optionalFloatOrNotGiven, 180);
    const fields = ['content', 'reminder_timestamp', 'latitude', 'longitude'];
    if (fields.every((field) => args[field] === undefined))
      throw new ToolException(
        'ValueError',
        'No update information given. At least one new field should be provided among ' +
          '[content, reminder_timestamp, latitude, longitude] in order to modify reminder',
      );
    const reminderId = args.reminder_id as string;
    const entry: Row = { ...uniqueRow(context, 'reminder', 'reminder_id', reminderId) };
    entry.creation_timestamp = runtimeOf(context).now;
    if (args.content !== undefined) entry.content = args.content as string;
    for (const field of ['reminder_timestamp', 'latitude', 'longitude'])
      if (args[field] !== undefined) entry[field] = asFloat(args[field])!;
    removeWhere(context, 'reminder', 'reminder_id', reminderId);
    context.addToDatabase('reminder', [entry]);
    return null;
  },
};

const BOUNDS = [
  'creation_timestamp_lowerbound',
  'creation_timestamp_upperbound',
  'reminder_timestamp_lowerbound',
  'reminder_timestamp_upperbound',
];

const searchReminder: Tool = {
  name: 'search_reminder',
  visibleTo: agent,
  parameters: [
    param('reminder_id', str, 'not_given'),
    param('content', str, 'not_given'),
    ...BOUNDS.map((name) => param(name, float, 'not_given')),
    param('latitude', float, 'not_given'),
    param('longitude', float, 'not_given'),
  ],
  run(context, args) {
    for (const bound of BOUNDS) validateTimestamp(args[bound], bound, floatOrNotGiven);
    validateDegrees(args.latitude, 'latitude', floatOrNotGiven, 90);
    validateDegrees(args.longitude, 'longitude', floatOrNotGiven, 180);
    const criteria: Criterion[] = [
      ['reminder_id', args.reminder_id, 'exact'],
      ['content', args.content, { fuzzy: 50 }],
      ['creation_timestamp', args.creation_timestamp_lowerbound, 'gte'],
      ['creation_timestamp', args.creation_timestamp_upperbound, 'lte'],
      ['reminder_timestamp', args.reminder_timestamp_lowerbound, 'gte'],
      ['reminder_timestamp', args.reminder_timestamp_upperbound, 'lte'],
      ['latitude', args.latitude, 'exact'],
      ['longitude', args.longitude, 'exact'],
    ];
    return toDicts('reminder', filterRows(context.getDatabase('reminder'), criteria));
  },
};

const removeReminder: Tool = {
  name: 'remove_reminder',
  visibleTo: agent,
  parameters: [param('reminder_id', str)],
  run(context, args) {
    removeWhere(context, 'reminder', 'reminder_id', args.reminder_id as string);
    return null;
  },
};

/** The four reminder tools. */
export const REMINDER_TOOLS: Tool[] = [addReminder, modifyReminder, searchReminder, removeReminder];
