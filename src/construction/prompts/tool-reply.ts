/** Reading model-made tool definitions: a valid name, a clean description, an object schema, no collision. */
import { labelWordsIn } from '../labels.js';
import type { NameSet } from '../names.js';
import type { SourceTool } from '../source-record.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{1,63}$/;

/** One model-made tool, checked against the names already taken (and added to them when valid). */
export function readTool(
  value: unknown,
  taken: NameSet,
): { ok: true; tool: SourceTool } | { ok: false; reason: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: 'not an object' };
  const { name, description, parameters } = value as Record<string, unknown>;
  if (typeof name !== 'string' || !NAME.test(name))
    return { ok: false, reason: `invalid name ${JSON.stringify(name)}` };
  if (taken.collides(name))
    return { ok: false, reason: `name ${name} collides with a listed or reference tool` };
  if (typeof description !== 'string' || !description.trim())
    return { ok: false, reason: `${name} has no description` };
  const labels = labelWordsIn(`${name} ${description}`);
  if (labels.length > 0)
    return { ok: false, reason: `${name} carries label words (${labels.join(', ')})` };
  if (
    parameters !== undefined &&
    (!parameters || typeof parameters !== 'object' || Array.isArray(parameters))
  )
    return { ok: false, reason: `${name} has parameters that are not a JSON schema object` };
  taken.add(name);
  const tool: SourceTool = { name, description: description.trim() };
  if (parameters) tool.parameters = parameters as Record<string, unknown>;
  return { ok: true, tool };
}
