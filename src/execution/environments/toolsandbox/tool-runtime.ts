/**
 * What ToolSandbox's tools take from outside the world: the time (`datetime.now()`) and fresh
 * ids (`uuid4()`). Here both are fixed so that a conversation replays identically: "now" is one
 * frozen instant (the scenarios' 2024-09-02T12:00:00Z unless a session picks another, as
 * `--clock ISO` will), and ids are uuid5-style hashes of a per-world counter. Every date the
 * tools compute is in UTC (ToolSandbox reads the machine's local zone; its exports ran in UTC).
 */
import { createHash } from 'node:crypto';
import type { ExecutionContext } from './execution-context.js';

/** The instant every scenario's data was built at (data/toolsandbox/scenarios.json `clock`). */
export const FROZEN_CLOCK_ISO = '2024-09-02T12:00:00+00:00';

/** The clock and id source of one world. */
export interface ToolRuntime {
  /** `datetime.now().timestamp()`: POSIX seconds. */
  readonly now: number;
  /** A fresh id in uuid form (deterministic: the n-th id of a world is always the same). */
  newId(): string;
}

/** POSIX seconds of an ISO instant; an InputError-worthy message when it does not parse. */
export function parseClock(iso: string): number {
  const ms = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(ms))
    throw new Error(`clock: '${iso}' is not an ISO 8601 instant (e.g. 2024-09-02T12:00:00Z)`);
  return ms / 1000;
}

/** A runtime reading `clock` (default: the frozen instant). */
export function createRuntime(clock: string = FROZEN_CLOCK_ISO): ToolRuntime {
  const now = parseClock(clock);
  let count = 0;
  return {
    now,
    newId() {
      const hex = createHash('sha1').update(`apb-toolsandbox:${clock}:${++count}`).digest('hex');
      const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
      const parts = [hex.slice(0, 8), hex.slice(8, 12), `5${hex.slice(13, 16)}`];
      return [...parts, `${variant}${hex.slice(17, 20)}`, hex.slice(20, 32)].join('-');
    },
  };
}

const runtimes = new WeakMap<ExecutionContext, ToolRuntime>();

/** The runtime of a world: the one set for it, else a frozen-clock one made on first use. */
export function runtimeOf(context: ExecutionContext): ToolRuntime {
  let runtime = runtimes.get(context);
  if (!runtime) {
    runtime = createRuntime();
    runtimes.set(context, runtime);
  }
  return runtime;
}

/** Sets a world's clock (a session option: `--clock ISO`); ids restart from the first. */
export function useClock(context: ExecutionContext, clock: string): void {
  runtimes.set(context, createRuntime(clock));
}
