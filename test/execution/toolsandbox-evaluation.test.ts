// ToolSandbox's own evaluation tests (upstream tests/common/evaluation_test.py, Apple's licence:
// data/toolsandbox/LICENSE), the same cases and expected values, against the TypeScript port.
import { describe, expect, it } from 'vitest';
import {
  columnMeasure,
  type ColumnMeasure,
} from '../../src/execution/environments/toolsandbox/column-measures.js';
import {
  frameOf,
  type Frame,
  type Row,
} from '../../src/execution/environments/toolsandbox/frame.js';
import { columnsOf } from '../../src/execution/environments/toolsandbox/schemas.js';
import {
  additionSimilarity,
  snapshotSimilarity,
} from '../../src/execution/environments/toolsandbox/snapshot-measures.js';
import {
  toolTraceDependantSimilarity,
  type Extractor,
} from '../../src/execution/environments/toolsandbox/tool-trace-dependant.js';

const reference = frameOf([{ sandbox_message_index: 0, content: 'Hello there', num: 0 }]);
const snapshot = frameOf([
  { sandbox_message_index: 1, content: 'Hello there', num: 0 },
  { sandbox_message_index: 1, content: 'Hey there', num: 1 },
]);
const columns: Record<string, ColumnMeasure> = {
  content: columnMeasure({ kind: 'rouge_l' }),
  num: columnMeasure({ kind: 'exact' }),
};
const snap = (target: Frame, ref: Frame = reference) =>
  snapshotSimilarity({ snapshot, target, columns, reference: ref });
const add = (target: Frame, ref: Frame = reference) =>
  additionSimilarity({ snapshot, target, columns, reference: ref });

describe('snapshot_similarity', () => {
  it('is 0 for a different row count or a column the snapshot lacks', () => {
    expect(snap(frameOf([{ content: 'Hello there', num: 0 }]))).toBe(0);
    expect(
      snap(frameOf([{ sandbox_message_index: 0, content: 'Hello there', wrong_column: '?' }])),
    ).toBe(0);
  });
  it('is 1 on a subset of columns that matches', () => {
    expect(snap(frameOf([{ num: 0 }, { num: 1 }]))).toBe(1);
  });
  it('does not depend on row order', () => {
    const a = snap(
      frameOf([
        { content: 'Hi there', num: 0 },
        { content: 'Hi there', num: 1 },
      ]),
    );
    const b = snap(
      frameOf([
        { content: 'Hi there', num: 1 },
        { content: 'Hi there', num: 0 },
      ]),
    );
    expect(a).toBeGreaterThan(0);
    expect(a).toBe(b);
    expect(a).toBeLessThan(1);
  });
});

describe('addition_similarity', () => {
  it('is 0 when the reference is not kept, or the added rows differ in number', () => {
    const two = frameOf([
      { content: 'Hi there', num: 1 },
      { content: 'Hi there', num: 0 },
    ]);
    expect(add(two, frameOf([{ sandbox_message_index: 0, content: 'Hello there', num: 2 }]))).toBe(
      0,
    );
    expect(add(two)).toBe(0);
    expect(add(frameOf([{ content: 'Hi there', num: 0 }]))).toBe(0);
  });
  it('scores the added row against the expected one', () => {
    const value = add(frameOf([{ content: 'Hi there', num: 1 }]));
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(1);
  });
});

const traceSnapshot = frameOf([
  {
    tool_trace: [
      JSON.stringify({
        tool_name: 'search_holiday',
        arguments: { holiday_name: 'Christmas Day', year: 2024 },
      }),
      JSON.stringify({
        tool_name: 'search_lat_lon',
        arguments: { latitude: 37.334606, longitude: -122.009102 },
      }),
    ],
  },
]);

function traceScore(golden: unknown, atol?: Record<string, number>): number | null {
  const measure = columnMeasure({ kind: 'tool_trace', ...(atol ? { atol } : {}) });
  return measure(traceSnapshot.rows, 'tool_trace', JSON.stringify(golden))[0]!;
}

describe('column_tool_trace_exact_match_similarity', () => {
  const holiday = (args: Record<string, unknown>) => ({
    tool_name: 'search_holiday',
    arguments: args,
  });
  const latLon = {
    tool_name: 'search_lat_lon',
    arguments: { latitude: 37.34, longitude: -122.01 },
  };
  it('checks the tool name and only the arguments the golden trace gives', () => {
    expect(traceScore({ tool_name: 'search_stock', arguments: { query: 'Apple' } })).toBe(0);
    expect(traceScore(holiday({ holiday_name: 'Christmas Day', year: null }))).toBe(0);
    expect(traceScore(holiday({ holiday_name: 'Christmas Day', year: 2024 }))).toBe(1);
    expect(traceScore(holiday({ year: 2024 }))).toBe(1);
  });
  it('matches when any of several golden traces matches', () => {
    expect(
      traceScore([
        holiday({ holiday_name: 'Christmas Day', year: null }),
        holiday({ holiday_name: 'Christmas Day', year: 2024 }),
      ]),
    ).toBe(1);
  });
  it('compares floats exactly unless a tolerance is given', () => {
    expect(traceScore(latLon)).toBe(0);
    expect(traceScore(latLon, { latitude: 0.2, longitude: 0.2 })).toBe(1);
    expect(traceScore(latLon, { latitude: 0.002, longitude: 0.002 })).toBe(0);
  });
});

function sandboxFrame(row: Row): Frame {
  const columns = columnsOf('sandbox');
  return frameOf([row], columns);
}

describe('tool_trace_dependant_similarity', () => {
  const snapshotFrame = sandboxFrame({
    tool_trace: [
      JSON.stringify({
        tool_name: 'search_holiday',
        arguments: { holiday_name: 'Christmas Day', year: 2024 },
      }),
    ],
  });
  const referenceFrame = sandboxFrame({ tool_trace: [JSON.stringify({ results: 2024 })] });
  const measures = { tool_trace: columnMeasure({ kind: 'tool_trace' }) };
  const score = (golden: unknown, extractor: Extractor) =>
    toolTraceDependantSimilarity(
      {
        snapshot: snapshotFrame,
        reference: referenceFrame,
        columns: measures,
        target: frameOf([{ tool_trace: JSON.stringify(golden) }]),
      },
      { fillTo: 'tool_trace', extractor },
    );
  const results = (t: { result: unknown }) => (t as unknown as { results: number }).results;
  const partial = { tool_name: 'search_holiday', arguments: { holiday_name: 'Christmas Day' } };
  const full = {
    tool_name: 'search_holiday',
    arguments: { holiday_name: 'Christmas Day', year: 2024 },
  };
  const nullYear = {
    tool_name: 'search_holiday',
    arguments: { holiday_name: 'Christmas Day', year: null },
  };
  it('fills an extracted argument', () => {
    expect(score(partial, (t) => [{ year: results(t) }])).toBe(1);
  });
  it('is 0 on a wrong key or a wrong value', () => {
    expect(score(partial, (t) => [{ day: results(t) }])).toBe(0);
    expect(score(partial, (t) => [{ year: results(t) + 1 }])).toBe(0);
  });
  it('prefers the argument the golden trace provides', () => {
    expect(score(full, (t) => [{ year: results(t) + 1 }])).toBe(1);
  });
  it('tries every candidate trace', () => {
    expect(score([nullYear, partial], (t) => [{ year: results(t) }])).toBe(1);
    expect(score([full, partial], (t) => [{ year: results(t) + 1 }])).toBe(1);
  });
});
