/**
 * ToolSandbox's column similarity measures: each scores every row of a snapshot against one
 * expected value of one column, in [0, 1], or null where polars would give null (a null cell
 * compared by equality, or `contains`), which the row's mean then skips. Scores are Float32, as
 * ToolSandbox casts them.
 */
import type { Cell, Row } from './frame.js';
import { pyEquals } from './python-values.js';
import { rougeL } from './rouge.js';

/** A column measure as scenario data names it. */
export type ColumnMeasureSpec =
  | { kind: 'exact' }
  | { kind: 'close'; atol: Record<string, number> }
  | { kind: 'one' }
  | { kind: 'contains' }
  | { kind: 'tool_trace'; atol?: Record<string, number> }
  | { kind: 'rouge_l' };

/** The score of each row of `rows` on `column` against `value`. */
export type ColumnMeasure = (
  rows: readonly Row[],
  column: string,
  value: unknown,
) => (number | null)[];

/** ToolSandbox's `is_close`: within `atol` for two numbers when a tolerance is given, else `==`. */
export function isClose(value: unknown, reference: unknown, atol: number | undefined): boolean {
  if (atol !== undefined && typeof value === 'number' && typeof reference === 'number')
    return Math.abs(value - reference) <= atol;
  return pyEquals(value, reference);
}

const f32 = Math.fround;

function exact(rows: readonly Row[], column: string, value: unknown): (number | null)[] {
  if (value === null || value === undefined)
    return rows.map((row) => (cell(row, column) === null ? 1 : 0));
  return rows.map((row) => {
    const c = cell(row, column);
    return c === null ? null : pyEquals(c, value) ? 1 : 0;
  });
}

function cell(row: Row, column: string): Cell {
  return row[column] ?? null;
}

function close(atol: Record<string, number>): ColumnMeasure {
  return (rows, column, value) => {
    if (typeof value !== 'number')
      throw new TypeError(`column_close_similarity needs a number for ${column}`);
    return rows.map((row) => (isClose(value, cell(row, column), atol[column]) ? 1 : 0));
  };
}

function contains(rows: readonly Row[], column: string, value: unknown): (number | null)[] {
  return rows.map((row) => {
    const c = cell(row, column);
    if (c === null) return null;
    return String(c).includes(String(value)) ? 1 : 0;
  });
}

interface Trace {
  tool_name: string;
  arguments: Record<string, unknown>;
}

const NOT_GIVEN = Symbol('NOT_GIVEN');

/** Whether a recorded trace calls the golden trace's tool with (close to) each argument it names. */
export function traceMatches(trace: Trace, golden: Trace, atol?: Record<string, number>): boolean {
  if (trace.tool_name !== golden.tool_name) return false;
  return Object.entries(golden.arguments).every(([name, expected]) => {
    const actual = Object.hasOwn(trace.arguments, name) ? trace.arguments[name] : NOT_GIVEN;
    return actual !== NOT_GIVEN && isClose(actual, expected, atol?.[name]);
  });
}

function toolTrace(atol?: Record<string, number>): ColumnMeasure {
  return (rows, column, value) => {
    const parsed = JSON.parse(String(value)) as Trace | Trace[];
    const goldens = Array.isArray(parsed) ? parsed : [parsed];
    return rows.map((row) => {
      const traces = cell(row, column);
      if (!Array.isArray(traces)) return 0;
      for (const golden of goldens)
        for (const json of traces as string[])
          if (traceMatches(JSON.parse(json) as Trace, golden, atol)) return 1;
      return 0;
    });
  };
}

function rouge(rows: readonly Row[], column: string, value: unknown): (number | null)[] {
  // a null cell would raise inside rouge_score; it cannot match a text, so it scores 0
  return rows.map((row) => f32(rougeL(String(value), String(cell(row, column) ?? ''))));
}

/** The measure function of a spec. */
export function columnMeasure(spec: ColumnMeasureSpec): ColumnMeasure {
  switch (spec.kind) {
    case 'exact':
      return exact;
    case 'close':
      return close(spec.atol);
    case 'one':
      return (rows) => rows.map(() => 1);
    case 'contains':
      return contains;
    case 'tool_trace':
      return toolTrace(spec.atol);
    case 'rouge_l':
      return rouge;
  }
}

/** ToolSandbox's default measure for each column of each database. */
export const DEFAULT_COLUMN_MEASURES: Record<string, Record<string, ColumnMeasureSpec['kind']>> = {
  sandbox: {
    sandbox_message_index: 'exact',
    sender: 'exact',
    recipient: 'exact',
    content: 'rouge_l',
    openai_tool_call_id: 'one',
    openai_function_name: 'one',
    conversation_active: 'exact',
    tool_call_exception: 'one',
    tool_trace: 'tool_trace',
    visible_to: 'exact',
  },
  setting: {
    sandbox_message_index: 'exact',
    device_id: 'exact',
    cellular: 'exact',
    wifi: 'exact',
    location_service: 'exact',
    low_battery_mode: 'exact',
    latitude: 'exact',
    longitude: 'exact',
  },
  contact: {
    sandbox_message_index: 'exact',
    person_id: 'exact',
    name: 'exact',
    phone_number: 'exact',
    relationship: 'rouge_l',
    is_self: 'exact',
  },
  messaging: {
    sandbox_message_index: 'exact',
    message_id: 'exact',
    sender_person_id: 'exact',
    sender_phone_number: 'exact',
    recipient_person_id: 'exact',
    recipient_phone_number: 'exact',
    content: 'rouge_l',
    creation_timestamp: 'exact',
  },
  reminder: {
    sandbox_message_index: 'exact',
    reminder_id: 'exact',
    content: 'rouge_l',
    creation_timestamp: 'exact',
    reminder_timestamp: 'exact',
    latitude: 'exact',
    longitude: 'exact',
  },
};
