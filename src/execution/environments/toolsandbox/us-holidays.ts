/**
 * The US federal holidays `holidays.country_holidays(country="US", years=Y)` lists (checked
 * against the holidays package, 0.105), with the observed days of the fixed-date ones: a Saturday
 * holiday is observed the Friday before, a Sunday one the Monday after; New Year's Day of Y+1
 * falling on a Saturday is observed on Dec 31 of Y.
 */

/** One holiday: its date and name. */
export interface Holiday {
  year: number;
  month: number;
  day: number;
  name: string;
}

function weekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

function nthWeekday(year: number, month: number, dow: number, n: number): number {
  const first = weekday(year, month, 1);
  return 1 + ((dow - first + 7) % 7) + 7 * (n - 1);
}

function lastWeekday(year: number, month: number, dow: number): number {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return last - ((weekday(year, month, last) - dow + 7) % 7);
}

function shiftDay(year: number, month: number, day: number, by: number): [number, number, number] {
  const date = new Date(Date.UTC(year, month - 1, day + by));
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

/** The year's holidays in date order. */
export function usHolidays(year: number): Holiday[] {
  const out: Holiday[] = [];
  const add = (month: number, day: number, name: string) => out.push({ year, month, day, name });
  const fixed = (month: number, day: number, name: string) => {
    add(month, day, name);
    const dow = weekday(year, month, day);
    if (dow === 0 || dow === 6) {
      const [y, m, d] = shiftDay(year, month, day, dow === 6 ? -1 : 1);
      if (y === year) out.push({ year: y, month: m, day: d, name: `${name} (observed)` });
    }
  };
  fixed(1, 1, "New Year's Day");
  if (year >= 1986) add(1, nthWeekday(year, 1, 1, 3), 'Martin Luther King Jr. Day');
  add(2, nthWeekday(year, 2, 1, 3), "Washington's Birthday");
  add(5, lastWeekday(year, 5, 1), 'Memorial Day');
  if (year >= 2021) fixed(6, 19, 'Juneteenth National Independence Day');
  fixed(7, 4, 'Independence Day');
  add(9, nthWeekday(year, 9, 1, 1), 'Labor Day');
  add(10, nthWeekday(year, 10, 1, 2), 'Columbus Day');
  fixed(11, 11, 'Veterans Day');
  add(11, nthWeekday(year, 11, 4, 4), 'Thanksgiving Day');
  fixed(12, 25, 'Christmas Day');
  if (weekday(year + 1, 1, 1) === 6) add(12, 31, "New Year's Day (observed)");
  return out.sort((a, b) => a.month - b.month || a.day - b.day);
}
