/**
 * The frozen clock of ToolSandbox in apb. ToolSandbox reads `datetime.now()` when it builds a
 * scenario's data ("a message sent five minutes ago") and when a tool stamps or reports the time
 * (`get_current_timestamp`, a sent message's or a new reminder's `creation_timestamp`). apb reads
 * one fixed instant instead, so results do not move with the date: `DEFAULT_CLOCK`, the instant
 * the scenario data was exported at (data/toolsandbox/scenarios.json's `clock`). `--clock ISO`
 * moves it: the tools read the new instant, and every timestamp of the scenario data (databases
 * and milestone targets) moves by the same amount, as if the data had been built at that instant.
 */
import { UsageError } from '../../../errors.js';
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './frame.js';
import { pyJsonDumps } from './python-repr.js';
import {
  FROZEN_CLOCK_ISO,
  parseClock as parseToolClock,
  runtimeOf,
  useClock,
} from './tool-runtime.js';

/** The instant every "now" reads unless `--clock` says otherwise (the data's export clock). */
export const DEFAULT_CLOCK = FROZEN_CLOCK_ISO;

/** Columns holding POSIX timestamps (seconds) in ToolSandbox's databases. */
export const TIMESTAMP_COLUMNS = ['creation_timestamp', 'reminder_timestamp'] as const;

/** An ISO 8601 instant with a time zone, as POSIX seconds; anything else is a usage error. */
export function parseClock(iso: string): number {
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso);
  const ms = Date.parse(iso);
  if (!zoned || Number.isNaN(ms))
    throw new UsageError(
      `--clock must be an ISO 8601 instant with a time zone, e.g. 2024-09-02T12:00:00Z (got "${iso}")`,
    );
  return ms / 1000;
}

/** The clock as the manifest records it: normalised to UTC (`2024-09-02T12:00:00.000Z`). */
export function clockText(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/**
 * Sets the instant a context's tools read as "now" (POSIX seconds), through the tools' runtime
 * (tool-runtime.ts). The default instant keeps the runtime's own spelling of it, on which the
 * ids a world hands out depend (the Python exports make the same ids).
 */
export function setClock(context: ExecutionContext, seconds: number): void {
  const frozen = seconds === parseToolClock(FROZEN_CLOCK_ISO);
  useClock(context, frozen ? FROZEN_CLOCK_ISO : clockText(seconds));
}

/** "Now" for a tool running on `context`: its clock, or the default one. */
export function nowOf(context: ExecutionContext): number {
  return runtimeOf(context).now;
}

/** A row with its timestamp columns moved by `delta` seconds (other cells as they are). */
export function shiftRow(row: Row, delta: number): Row {
  const out: Row = { ...row };
  if (delta === 0) return out;
  for (const column of TIMESTAMP_COLUMNS) {
    const value = out[column];
    if (typeof value === 'number') out[column] = value + delta;
  }
  return out;
}

/** Timestamps below this are bounds or placeholders of the data (0), not instants: never moved. */
const EPOCH_FLOOR = 1e8;

function shiftTrace(text: string, delta: number): string {
  let calls: unknown;
  try {
    calls = JSON.parse(text);
  } catch {
    return text;
  }
  const one = (call: { arguments?: Record<string, unknown> } | null) => {
    if (!call || typeof call !== 'object' || !call.arguments) return call;
    const args = Object.fromEntries(
      Object.entries(call.arguments).map(([key, value]) => [
        key,
        key.includes('timestamp') && typeof value === 'number' && value > EPOCH_FLOOR
          ? value + delta
          : value,
      ]),
    );
    return { ...call, arguments: args };
  };
  const moved = Array.isArray(calls) ? calls.map(one) : one(calls as Parameters<typeof one>[0]);
  return pyJsonDumps(moved);
}

interface Constraint {
  target_dataframe: { columns: string[]; rows: Row[] } | null;
}

/**
 * A scenario's milestones or minefields with their target timestamps moved by `delta`: the
 * timestamp columns, and timestamp arguments (instants, not placeholder bounds) in tool traces.
 */
export function shiftNodes<T>(nodes: readonly T[], delta: number): T[] {
  if (delta === 0) return [...nodes];
  return nodes.map((node) => {
    const { snapshot_constraints: constraints } = node as { snapshot_constraints: Constraint[] };
    return {
      ...node,
      snapshot_constraints: constraints.map((constraint) => {
        const target = constraint.target_dataframe;
        if (!target) return constraint;
        const rows = target.rows.map((row) => {
          const out = shiftRow(row, delta);
          if (typeof out.tool_trace === 'string')
            out.tool_trace = shiftTrace(out.tool_trace, delta);
          return out;
        });
        return { ...constraint, target_dataframe: { ...target, rows } };
      }),
    };
  });
}
