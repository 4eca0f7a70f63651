/** Fig. 13's intent in this project's words: a working alternative to a failing tool, under a distinct name. */
import { versionOf } from '../../settings/prompt.js';
import type { ModelPrompt } from '../model.js';
import { NameSet } from '../names.js';
import type { SourceRecord, SourceTool } from '../source-record.js';
import { taskText } from './render.js';
import { readTool } from './tool-reply.js';

const SYSTEM = `You design an alternative tool for an agent whose tool stopped working.
Given the tool bank and the failing tool, write one new tool that performs the same function through another service or interface: a distinct, natural name (not the old name with a suffix such as _v2 or _backup), its own description written as ordinary documentation, and a parameters schema that accepts the same arguments under the same names, so a call made to the failing tool can be repeated with it.
Never mention that another tool failed, and never call the new tool a replacement, a backup or a fallback.
Answer with one JSON object and nothing else:
{"name": "...", "description": "...", "parameters": {"type": "object", "properties": {...}, "required": [...]}}`;

const USER = `{task}

## The tool that fails
{tool}`;

/** The version of this prompt's templates. */
export const BROKEN_PROMPT_VERSION = versionOf('construct-broken', SYSTEM, USER);

/** The replacement prompt for a record and its broken tool. */
export function brokenPrompt(record: SourceRecord, broken: SourceTool): ModelPrompt {
  return {
    promptVersion: BROKEN_PROMPT_VERSION,
    system: SYSTEM,
    user: USER.replace('{task}', taskText(record)).replace('{tool}', JSON.stringify(broken)),
  };
}

/** Whether a schema accepts the argument names of a call: no unknown names, every required one given. */
export function acceptsArgumentNames(
  schema: Record<string, unknown> | undefined,
  args: unknown,
): boolean {
  if (!schema)
    return (
      args === undefined ||
      (typeof args === 'object' && args !== null && Object.keys(args).length === 0)
    );
  if (!args || typeof args !== 'object' || Array.isArray(args)) return false;
  const properties =
    schema.properties && typeof schema.properties === 'object'
      ? Object.keys(schema.properties)
      : [];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const given = Object.keys(args);
  return (
    given.every((name) => properties.includes(name)) &&
    required.every((name) => given.includes(name))
  );
}

/** The model's replacement: a valid, non-colliding tool that takes the broken call's arguments. */
export function readReplacementReply(
  value: Record<string, unknown>,
  record: SourceRecord,
  callArguments: unknown,
): { ok: true; tool: SourceTool } | { ok: false; reason: string } {
  const read = readTool(value, new NameSet(record.tools.map((tool) => tool.name)));
  if (!read.ok) return read;
  if (!acceptsArgumentNames(read.tool.parameters, callArguments))
    return { ok: false, reason: `${read.tool.name} does not take the broken call's arguments` };
  return read;
}
