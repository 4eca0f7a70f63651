/**
 * ToolSandbox's tool-trace-dependant similarity: the expected message depends on what a tool
 * returned earlier in the conversation (a temperature, a timestamp). Values are extracted from
 * the reference message's tool traces, in every normalised form, filled into the expected
 * message's tool trace or content, and the best resulting snapshot similarity is kept.
 */
import { INDEX_COLUMN, SCHEMAS } from './schemas.js';
import { KeyError, PyFloat, pyFixed, pyFormat } from './python-values.js';
import { snapshotSimilarity, type MeasureInput } from './snapshot-measures.js';

/** A parsed tool trace. */
export type TraceRecord = {
  tool_name: string;
  arguments: Record<string, unknown>;
  result: unknown;
};
/** Values extracted from a trace, by placeholder name. */
export type Extracted = Record<string, unknown>;

/** Raised where ToolSandbox raises polars' SchemaError. */
export class SchemaError extends Error {}

/** Python `float(x)` for the values a tool result holds (numbers and numeric strings). */
function pyFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  throw new TypeError(`could not convert to float: ${String(value)}`);
}

function pyInt(value: unknown): number {
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  throw new TypeError(`invalid literal for int(): ${String(value)}`);
}

function field(result: unknown, key: string): unknown {
  if (typeof result !== 'object' || result === null || !Object.hasOwn(result, key))
    throw new KeyError(key);
  return (result as Record<string, unknown>)[key];
}

/** Surface forms of a float: 0 to 3 decimals. */
function normalisations(value: number): string[] {
  return [0, 1, 2, 3].map((digits) => pyFixed(value, digits));
}

/** ToolSandbox's extractors by name (`tool_trace_extractors.py`). */
export const EXTRACTORS: Record<string, Extractor> = {
  search_weather_around_lat_lon_temperature_extractor: (trace) => {
    let temperature: number;
    try {
      temperature = pyFloat(field(trace.result, 'current_temperature'));
    } catch {
      return [];
    }
    return normalisations(temperature).map((t) => ({ temperature: t }));
  },
  result_to_timestamp0_extractor: (t) => [{ timestamp_0: new PyFloat(pyFloat(t.result)) }],
  result_to_timestamp1_extractor: (t) => [{ timestamp_1: new PyFloat(pyFloat(t.result)) }],
  days_extractor: (t) => [{ days: pyInt(field(t.result, 'days')) }],
  lat_lon_dict_extractor: (t) => [
    { latitude: field(t.result, 'latitude'), longitude: field(t.result, 'longitude') },
  ],
  current_temperature_extractor: (t) => [
    { amount: new PyFloat(pyFloat(field(t.result, 'current_temperature'))) },
  ],
  result_to_temperature_extractor: (t) =>
    normalisations(pyFloat(t.result)).map((x) => ({ temperature: x })),
  result_to_reminder_timestamp_lowerbound_extractor: (t) => [
    { reminder_timestamp_lowerbound: new PyFloat(pyFloat(t.result)) },
  ],
  min_temperature_amount_extractor: (t) => [
    { amount: new PyFloat(pyFloat(field(t.result, 'min_temperature'))) },
  ],
  min_temperature_extractor: (t) =>
    normalisations(pyFloat(t.result)).map((x) => ({ min_temperature: x })),
};

function plain(values: Extracted): Extracted {
  return JSON.parse(JSON.stringify(values)) as Extracted;
}

/** What this measure needs beyond a snapshot measure's input. */
export interface TraceDependantOptions {
  fillTo: 'tool_trace' | 'content';
  /** An extractor's name in EXTRACTORS, or the function itself. */
  extractor: string | Extractor;
}

/** Extracts every normalised form of some values from one tool trace. */
export type Extractor = (trace: TraceRecord) => Extracted[];

function checkSandboxRow(input: MeasureInput): void {
  const expected = Object.keys(SCHEMAS.sandbox).filter((c) => c !== INDEX_COLUMN);
  for (const frame of [input.snapshot, input.reference]) {
    const columns = frame ? frame.columns.filter((c) => c !== INDEX_COLUMN) : [];
    if (!frame || columns.join() !== expected.join() || frame.rows.length !== 1)
      throw new SchemaError(
        'tool_trace_dependant_similarity can only be used with SANDBOX database with only 1 row',
      );
  }
}

/** The best similarity over every value extracted from the reference message's tool traces. */
export function toolTraceDependantSimilarity(
  input: MeasureInput,
  options: TraceDependantOptions,
): number {
  checkSandboxRow(input);
  const extractor =
    typeof options.extractor === 'string' ? EXTRACTORS[options.extractor] : options.extractor;
  if (!extractor) throw new Error(`unknown tool trace extractor ${String(options.extractor)}`);
  const traces = input.reference!.rows[0]!.tool_trace;
  if (!Array.isArray(traces)) return 0;
  const extracted: Extracted[] = [];
  for (const json of traces as string[]) {
    try {
      extracted.push(...extractor(JSON.parse(json) as TraceRecord));
    } catch (error) {
      if (!(error instanceof KeyError || error instanceof TypeError)) throw error;
    }
  }
  const target = input.target!;
  let similarity = 0;
  try {
    for (const values of extracted) {
      const row = { ...target.rows[0]! };
      if (options.fillTo === 'tool_trace') row.tool_trace = fillTraces(row.tool_trace, values);
      else row.content = pyFormat(String(row.content), values);
      similarity = Math.max(
        similarity,
        snapshotSimilarity({
          ...input,
          target: { ...target, rows: [row, ...target.rows.slice(1)] },
        }),
      );
    }
  } catch (error) {
    if (error instanceof KeyError) return 0;
    throw error;
  }
  return similarity;
}

/** Each candidate trace twice: extracted values over its arguments, and its arguments over them. */
function fillTraces(traceJson: unknown, values: Extracted): string {
  const parsed = JSON.parse(String(traceJson)) as TraceRecord | TraceRecord[];
  const candidates = Array.isArray(parsed) ? parsed : [parsed];
  const filled = candidates.flatMap((candidate) => [
    { ...candidate, arguments: { ...candidate.arguments, ...plain(values) } },
    { ...candidate, arguments: { ...plain(values), ...candidate.arguments } },
  ]);
  return JSON.stringify(filled);
}
