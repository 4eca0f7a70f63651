/**
 * Pydantic's lax validation of a model built from tool arguments (`FlightInfo(**flight)`,
 * `UserAddress(address1=…)`): the same coercions ("5" → 5 for an int, 1 → True for a bool, extra
 * keys ignored, fields in model order) and the same error text (`1 validation error for Passenger`,
 * `dob`, `Field required [type=missing, …]`), over the domain's zod schemas. The documentation URL
 * names pydantic 2.13, the version tau2's outputs were compared with (docs/execution.md).
 */
import { pyRepr, pyTypeName, ToolError } from './python.js';
import { defOf, isIntSchema, type Schema, type SchemaDef as Def } from './zod-def.js';

const PYDANTIC_DOCS = 'https://errors.pydantic.dev/2.13/v';

interface Issue {
  loc: (string | number)[];
  type: string;
  message: string;
  input: unknown;
}

class Failure {
  constructor(readonly issues: Issue[]) {}
}

const fail = (loc: Issue['loc'], type: string, message: string, input: unknown) =>
  new Failure([{ loc, type, message, input }]);
const isDict = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const literalList = (values: unknown[]) => {
  const texts = values.map(pyRepr);
  return texts.length <= 1 ? texts.join('') : `${texts.slice(0, -1).join(', ')} or ${texts.at(-1)}`;
};

function number(value: unknown, loc: Issue['loc'], integer: boolean): number | Failure {
  const kind = integer ? 'integer' : 'number';
  const prefix = integer ? 'int' : 'float';
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'number') {
    if (integer && !Number.isInteger(value))
      return fail(
        loc,
        'int_from_float',
        'Input should be a valid integer, got a number with a fractional part',
        value,
      );
    return value;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    const pattern = integer ? /^[+-]?\d+(\.0*)?$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    if (pattern.test(text)) return Number(text);
    return fail(
      loc,
      `${prefix}_parsing`,
      `Input should be a valid ${kind}, unable to parse string as ${integer ? 'an integer' : 'a number'}`,
      value,
    );
  }
  return fail(loc, `${prefix}_type`, `Input should be a valid ${kind}`, value);
}

function boolean(value: unknown, loc: Issue['loc']): boolean | Failure {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (['1', 'on', 't', 'true', 'y', 'yes'].includes(text)) return true;
    if (['0', 'off', 'f', 'false', 'n', 'no'].includes(text)) return false;
  }
  if (typeof value === 'number' || typeof value === 'string')
    return fail(
      loc,
      'bool_parsing',
      'Input should be a valid boolean, unable to interpret input',
      value,
    );
  return fail(loc, 'bool_type', 'Input should be a valid boolean', value);
}

function validateObject(def: Def, value: unknown, loc: Issue['loc'], model: string): unknown {
  if (!isDict(value))
    return fail(
      loc,
      'model_type',
      `Input should be a valid dictionary or instance of ${model}`,
      value,
    );
  const out: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const fieldDef = defOf(field);
    if (!Object.hasOwn(value, key)) {
      if (fieldDef.type === 'default') out[key] = fieldDef.defaultValue;
      else if (fieldDef.type !== 'optional')
        issues.push({
          loc: [...loc, key],
          type: 'missing',
          message: 'Field required',
          input: value,
        });
      continue;
    }
    const result = validateValue(field, value[key], [...loc, key], key);
    if (result instanceof Failure) issues.push(...result.issues);
    else out[key] = result;
  }
  return issues.length > 0 ? new Failure(issues) : out;
}

function validateValue(schema: Schema, value: unknown, loc: Issue['loc'], model: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return value === null ? null : validateValue(def.innerType!, value, loc, model);
    case 'string':
      return typeof value === 'string'
        ? value
        : fail(loc, 'string_type', 'Input should be a valid string', value);
    case 'number':
      return number(value, loc, isIntSchema(schema));
    case 'boolean':
      return boolean(value, loc);
    case 'literal':
    case 'enum': {
      const values = def.values ?? Object.values(def.entries ?? {});
      return values.includes(value)
        ? value
        : fail(loc, 'literal_error', `Input should be ${literalList(values)}`, value);
    }
    case 'array': {
      if (!Array.isArray(value))
        return fail(loc, 'list_type', 'Input should be a valid list', value);
      const items = value.map((item, index) =>
        validateValue(def.element!, item, [...loc, index], model),
      );
      const issues = items.flatMap((item) => (item instanceof Failure ? item.issues : []));
      return issues.length > 0 ? new Failure(issues) : items;
    }
    case 'object':
      // A nested model names itself in its errors: its zod schema carries the class name as description.
      return validateObject(
        def,
        value,
        loc,
        (schema as unknown as { description?: string }).description ?? model,
      );
    default:
      return value;
  }
}

/** pydantic-core's repr of an input in an error line: cut to 25 + `...` + 24 characters beyond 50. */
function inputRepr(value: unknown): string {
  const text = pyRepr(value);
  return text.length > 50 ? `${text.slice(0, 25)}...${text.slice(-24)}` : text;
}

/** Validates `input` as pydantic's `Model(**input)` would; throws the ValidationError text as a ToolError. */
export function validateModel(
  model: string,
  schema: Schema,
  input: unknown,
): Record<string, unknown> {
  const result = validateValue(schema, input, [], model);
  if (!(result instanceof Failure)) return result as Record<string, unknown>;
  const count = result.issues.length;
  const lines = [`${count} validation error${count > 1 ? 's' : ''} for ${model}`];
  for (const issue of result.issues) {
    lines.push(issue.loc.join('.'));
    lines.push(
      `  ${issue.message} [type=${issue.type}, input_value=${inputRepr(issue.input)}, input_type=${pyTypeName(issue.input)}]`,
    );
    lines.push(`    For further information visit ${PYDANTIC_DOCS}/${issue.type}`);
  }
  throw new ToolError(lines.join('\n'));
}
