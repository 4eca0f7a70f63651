// Calling ToolSandbox tools directly on a world, as ToolSandbox's own tool tests do (no message
// log): the bound call, the exception class it raises, a table as `to_dicts()` gives it.
import { createHash } from 'node:crypto';
import type { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import type { Namespace } from '../../src/execution/environments/toolsandbox/schemas.js';
import { toDicts } from '../../src/execution/environments/toolsandbox/tools-common.js';
import {
  bindArguments,
  ToolException,
} from '../../src/execution/environments/toolsandbox/toolbox.js';
import { TOOLS } from '../../src/execution/environments/toolsandbox/tools.js';

/** uuid.uuid5(uuid.NAMESPACE_URL, name). */
export function uuid5(name: string): string {
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const hash = createHash('sha1').update(namespace).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  const cuts = [0, 8, 12, 16, 20, 32];
  return cuts
    .slice(1)
    .map((end, i) => hex.slice(cuts[i], end))
    .join('-');
}

export const NOW = 1725278400; // the frozen clock, 2024-09-02T12:00:00Z
export const ago = (days: number, hours: number, minutes: number, seconds: number) =>
  NOW - (((days * 24 + hours) * 60 + minutes) * 60 + seconds);

export function call(context: ExecutionContext, name: string, args: Record<string, unknown> = {}) {
  const tool = TOOLS.get(name)!;
  return tool.run(context, bindArguments(tool, args));
}
export function raises(
  context: ExecutionContext,
  name: string,
  args: Record<string, unknown>,
): string {
  try {
    call(context, name, args);
  } catch (error) {
    if (error instanceof ToolException) return error.type;
    throw error;
  }
  return 'no exception';
}
export const rows = (context: ExecutionContext, ns: Namespace) =>
  JSON.parse(JSON.stringify(toDicts(ns, context.getDatabase(ns)))) as Record<string, unknown>[];
