/**
 * ToolSandbox's utility tools (`tools/utilities.py`): the current timestamp (the world's frozen
 * clock), timestamp <-> calendar fields, shifting and differencing timestamps, unit conversion
 * (pint's registry, units.ts), the distance between two coordinates (geodesic.ts), and the US
 * holiday search (needs wifi; partial_ratio > 90 against the year's holiday names).
 */
import { defaultProcess, partialRatio } from './fuzzy.js';
import { geodesicKilometers } from './geodesic.js';
import * as dt from './python-datetime.js';
import { PyFloat } from './python-values.js';
import { runtimeOf } from './tool-runtime.js';
import { param, validateDegrees, validateTimestamp } from './tools-common.js';
import { getSetting } from './tools-setting.js';
import { ToolException, type Annotation, type Tool } from './toolbox.js';
import { convertUnits } from './units.js';
import { usHolidays } from './us-holidays.js';

const agent: Tool['visibleTo'] = ['agent'];
const float: Annotation = { types: ['float'] };
const int: Annotation = { types: ['int'] };
const str: Annotation = { types: ['str'] };

function tool(name: string, parameters: Tool['parameters'], run: Tool['run']): Tool {
  return { name, visibleTo: agent, parameters, run };
}

const timestampFromFields = tool(
  'datetime_info_to_timestamp',
  ['year', 'month', 'day', 'hour', 'minute', 'second'].map((name) => param(name, int)),
  (_context, args) => {
    const parts = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((n) => Number(args[n]));
    return new PyFloat(dt.toTimestamp(dt.makeDateTime(parts)));
  },
);

const SHIFTS: [string, number][] = [
  ['weeks', 604_800],
  ['days', 86_400],
  ['hours', 3_600],
  ['minutes', 60],
  ['seconds', 1],
];

const shiftTimestamp = tool(
  'shift_timestamp',
  [param('timestamp', float), ...SHIFTS.map(([name]) => param(name, int, { default: 0 }))],
  (_context, args) => {
    validateTimestamp(args.timestamp, 'timestamp', float);
    const delta = SHIFTS.reduce((sum, [name, unit]) => sum + Number(args[name]) * unit, 0);
    const start = dt.fromTimestamp(Number(args.timestamp));
    return new PyFloat(dt.toTimestamp(dt.shifted(start, delta)));
  },
);

const timestampDiff = tool(
  'timestamp_diff',
  [param('timestamp_0', float), param('timestamp_1', float)],
  (_context, args) => {
    validateTimestamp(args.timestamp_0, 'timestamp_0', float);
    validateTimestamp(args.timestamp_1, 'timestamp_1', float);
    const a = dt.fromTimestamp(Number(args.timestamp_0));
    const b = dt.fromTimestamp(Number(args.timestamp_1));
    return dt.difference(a, b);
  },
);

const secondsToClock = tool(
  'seconds_to_hours_minutes_seconds',
  [param('seconds', float)],
  (_context, args) => {
    const { hour, minute, second } = dt.fields(dt.fromTimestamp(Number(args.seconds)));
    return { hour, minute, second };
  },
);

const unitConversion = tool(
  'unit_conversion',
  [param('amount', float), param('from_unit', str), param('to_unit', str)],
  (_context, args) => {
    const amount = Number(args.amount);
    const from = args.from_unit as string;
    const to = args.to_unit as string;
    let value: number | 'same';
    try {
      value = convertUnits(amount, from, to);
    } catch (error) {
      if (!(error instanceof ToolException && error.type === 'pint.errors.UndefinedUnitError'))
        throw error;
      value = convertUnits(amount, from.toLowerCase(), to.toLowerCase());
    }
    // pint hands the amount back untouched when both units are the same
    return value === 'same' ? args.amount : new PyFloat(value);
  },
);

const COORDINATES: [string, 90 | 180][] = [
  ['latitude_0', 90],
  ['latitude_1', 90],
  ['longitude_0', 180],
  ['longitude_1', 180],
];

const distance = tool(
  'calculate_lat_lon_distance',
  ['latitude_0', 'longitude_0', 'latitude_1', 'longitude_1'].map((name) => param(name, float)),
  (_context, args) => {
    for (const [name, limit] of COORDINATES) validateDegrees(args[name], name, float, limit);
    const [lat0, lon0, lat1, lon1] = ['latitude_0', 'longitude_0', 'latitude_1', 'longitude_1'].map(
      (n) => Number(args[n]),
    ) as [number, number, number, number];
    return new PyFloat(geodesicKilometers(lat0, lon0, lat1, lon1));
  },
);

const searchHoliday = tool(
  'search_holiday',
  [param('holiday_name', str), param('year', { types: ['int'], none: true }, { default: null })],
  (context, args) => {
    if (!getSetting(context, 'wifi'))
      throw new ToolException('ConnectionError', 'Wifi is not enabled');
    const now = dt.fields(dt.fromTimestamp(runtimeOf(context).now));
    const year = args.year === null ? now.year : Number(args.year);
    const query = defaultProcess(args.holiday_name as string);
    const scored = usHolidays(year).map((h) => ({
      ...h,
      score: partialRatio(query, defaultProcess(h.name)),
    }));
    // sorted(reverse=True) on (score, date, name): the best score, then the latest date
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.month - a.month ||
        b.day - a.day ||
        (b.name < a.name ? -1 : b.name > a.name ? 1 : 0),
    );
    const top = scored[0];
    if (!top || !(top.score > 90)) return null;
    return new PyFloat(dt.midnight(top.year, top.month, top.day));
  },
);

/** The nine utility tools. */
export const UTILITY_TOOLS: Tool[] = [
  tool('get_current_timestamp', [], (context) => new PyFloat(runtimeOf(context).now)),
  tool('timestamp_to_datetime_info', [param('timestamp', float)], (_context, args) => {
    validateTimestamp(args.timestamp, 'timestamp', float);
    return dt.fields(dt.fromTimestamp(Number(args.timestamp)));
  }),
  timestampFromFields,
  shiftTimestamp,
  timestampDiff,
  secondsToClock,
  unitConversion,
  distance,
  searchHoliday,
];
