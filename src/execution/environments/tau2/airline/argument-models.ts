/**
 * How tau2's airline tools turn list arguments into models: only when every item is a dict
 * (`if all(isinstance(x, dict) for x in items)`); otherwise the raw items stay, and reading a
 * model attribute off one is Python's AttributeError.
 */
import { validateModel } from '../pydantic.js';
import { pyIter, pyTypeName, ToolError } from '../python.js';

/** tau2's `if all(isinstance(x, dict) for x in items): items = [Model(**x) for x in items]`; raw items stay as they were. */
export function asModels(
  value: unknown,
  model: string,
  schema: Parameters<typeof validateModel>[1],
): { items: unknown[]; validated: boolean; raw: unknown } {
  const items = pyIter(value);
  const allDicts = items.every(
    (item) => item !== null && typeof item === 'object' && !Array.isArray(item),
  );
  return allDicts
    ? {
        items: items.map((item) => validateModel(model, schema, item)),
        validated: true,
        raw: value,
      }
    : { items, validated: false, raw: value };
}

/** An attribute of a model item; a raw (unconverted) item has none, as in Python. */
export function attribute(item: unknown, validated: boolean, name: string): unknown {
  if (!validated || item === null || typeof item !== 'object' || Array.isArray(item))
    throw new ToolError(`'${pyTypeName(item)}' object has no attribute '${name}'`);
  return (item as Record<string, unknown>)[name];
}
