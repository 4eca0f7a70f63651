/**
 * The one strict boolean rule of apb: the official scorer's. JSON `true`/`false` and the numbers
 * `1`/`0` (which its `bool()` reads the same way); nothing else — not `"yes"`, not `"true"`: its
 * `bool("false")` is true, so any string would read differently here and there. docs/judge.md.
 */
import { z } from 'zod';

/** `true`/`false`/`1`/`0` as a boolean; anything else (strings included) is undefined. */
export function officialBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  return undefined;
}

/** The message every reader gives for a value that is not a strict boolean. */
export const BOOLEAN_MESSAGE = 'expected true, false, 1 or 0';

/** zod form of `officialBoolean`: a strict boolean read to `boolean`, anything else an issue. */
export const OfficialBoolean = z.unknown().transform((value, context) => {
  const read = officialBoolean(value);
  if (read !== undefined) return read;
  context.addIssue({ code: 'custom', message: `${BOOLEAN_MESSAGE}, got ${JSON.stringify(value)}` });
  return z.NEVER;
});
