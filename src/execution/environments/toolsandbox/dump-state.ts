/**
 * `--dump-state DIR`: a conversation's final world as JSON — the four databases (setting,
 * contact, messaging, reminder) as they stand at the end, and the whole message log with every
 * snapshot row — one file per scenario (`DIR/<scenario>.json`; a model run with modes and trials:
 * `DIR/<scenario>/<mode>-<trial>.json`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../atomic-write.js';
import type { ExecutionContext } from './execution-context.js';
import { NAMESPACES } from './schemas.js';
import { messageLog } from './session.js';

/** The final state of a context as plain JSON. */
export function finalState(context: ExecutionContext): Record<string, unknown> {
  const databases = Object.fromEntries(
    NAMESPACES.filter((ns) => ns !== 'sandbox').map((ns) => [ns, context.getDatabase(ns)]),
  );
  return { databases, message_log: messageLog(context) };
}

/** Writes the state of one conversation; names are scenario names (letters, digits, `_`). */
export function writeStateDump(
  dir: string,
  scenario: string,
  context: ExecutionContext,
  run?: { mode: string; trial: number },
): string {
  const file = run
    ? path.join(dir, scenario, `${run.mode}-${run.trial}.json`)
    : path.join(dir, `${scenario}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(finalState(context), null, 2)}\n`);
  return file;
}
