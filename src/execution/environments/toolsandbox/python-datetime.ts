/**
 * The slice of Python's `datetime` the utility tools use, for naive datetimes in UTC (the zone
 * ToolSandbox's exports ran in): `fromtimestamp` (microseconds rounded half to even),
 * `timestamp()`, the constructor's range checks, and timedelta's days/seconds split.
 */
import { ToolException } from './toolbox.js';

/** A naive datetime as POSIX whole seconds plus microseconds (0..999999). */
export interface PyDateTime {
  seconds: number;
  micros: number;
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

const MIN_SECONDS = Date.UTC(1, 0, 1) / 1000 - 0; // 0001-01-01
const MAX_SECONDS = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

function checkRange(seconds: number): void {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    const year = new Date(seconds * 1000).getUTCFullYear();
    throw new ToolException('ValueError', `year ${Number.isNaN(year) ? 0 : year} is out of range`);
  }
}

/** `datetime.fromtimestamp(t)`. */
export function fromTimestamp(t: number): PyDateTime {
  let whole = Math.trunc(t);
  let micros = roundHalfEven((t - whole) * 1e6);
  if (micros >= 1_000_000) {
    whole += 1;
    micros -= 1_000_000;
  } else if (micros < 0) {
    whole -= 1;
    micros += 1_000_000;
  }
  checkRange(whole);
  return { seconds: whole, micros };
}

/** `dt.timestamp()`. */
export function toTimestamp(dt: PyDateTime): number {
  return dt.seconds + dt.micros / 1e6;
}

/** The calendar fields of a datetime. */
export function fields(dt: PyDateTime) {
  const date = new Date(dt.seconds * 1000);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    isoweekday: date.getUTCDay() === 0 ? 7 : date.getUTCDay(),
  };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `datetime(year, month, day, hour, minute, second)` with CPython's range messages. */
export function makeDateTime(parts: number[]): PyDateTime {
  const [year, month, day, hour, minute, second] = parts as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || year > 9999)
    throw new ToolException('ValueError', `year ${year} is out of range`);
  if (month < 1 || month > 12) throw new ToolException('ValueError', 'month must be in 1..12');
  if (day < 1 || day > daysInMonth(year, month))
    throw new ToolException('ValueError', 'day is out of range for month');
  if (hour < 0 || hour > 23) throw new ToolException('ValueError', 'hour must be in 0..23');
  if (minute < 0 || minute > 59) throw new ToolException('ValueError', 'minute must be in 0..59');
  if (second < 0 || second > 59) throw new ToolException('ValueError', 'second must be in 0..59');
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  return { seconds: utc.getTime() / 1000, micros: 0 };
}

/** `dt + timedelta(seconds=delta)` for a whole number of seconds. */
export function shifted(dt: PyDateTime, delta: number): PyDateTime {
  const seconds = dt.seconds + delta;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS)
    throw new ToolException('OverflowError', 'date value out of range');
  return { seconds, micros: dt.micros };
}

/** `b - a` as timedelta's normalised (days, seconds). */
export function difference(a: PyDateTime, b: PyDateTime): { days: number; seconds: number } {
  const micros = (b.seconds - a.seconds) * 1_000_000 + (b.micros - a.micros);
  const days = Math.floor(micros / 86_400_000_000);
  const rest = micros - days * 86_400_000_000;
  return { days, seconds: Math.floor(rest / 1_000_000) };
}

/** Midnight (UTC) of a calendar date, as POSIX seconds. */
export function midnight(year: number, month: number, day: number): number {
  return makeDateTime([year, month, day, 0, 0, 0]).seconds;
}
