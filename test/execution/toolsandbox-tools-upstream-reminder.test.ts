// ToolSandbox's own tool tests (upstream tests/tools/reminder_test.py and utilities_test.py), the
// same cases and expected values, run on the port; and the clock. Apple's licence:
// data/toolsandbox/LICENSE.
import { describe, expect, it } from 'vitest';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import { useClock } from '../../src/execution/environments/toolsandbox/tool-runtime.js';
import { ago, call, NOW, raises, rows, uuid5 } from '../helpers/toolsandbox-tools.js';

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
