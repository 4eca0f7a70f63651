/**
 * `acceptsAsIs(schema)`: a yes/no test compiled from a zod schema's definition, for the validation
 * pass over a whole dataset. zod builds a full copy of every value it accepts: ~0.4 s of the
 * ~1.7 s CPU that `apb data validate` took on the 4,209-case benchmark dataset
 * (docs/performance.md), while the lines of a dataset are almost always valid and only need a yes.
 *
 * The contract is one-sided and exact: `true` means `schema.safeParse(value)` succeeds and returns
 * a value equal to the input (so the input itself can be used). `false` means "ask zod": the
 * caller runs `safeParse` for the verdict and its issue messages. A construct this compiler does
 * not know (transforms, defaults, stripping objects, checks it cannot read) compiles to `false`,
 * so a schema change can make validation slower but never wrong. The test suite compares both on
 * many valid and broken records.
 */
import type { z } from 'zod';

type Accepts = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  fn?: (value: unknown) => unknown;
}

const ASK_ZOD: Accepts = () => false;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A custom check's function as a plain predicate, or null when its result cannot be known synchronously. */
function customPredicate(fn: CheckDef['fn']): Accepts | null {
  if (typeof fn !== 'function') return null;
  return (value) => {
    const result = fn(value);
    return typeof result === 'boolean' ? result : false; // a promise (async refine) or anything else: ask zod
  };
}

/** One check of a string, number or object, or null when it is not one this compiler reads. */
function compileCheck(def: CheckDef): Accepts | null {
  switch (def.check) {
    case 'min_length':
      return typeof def.minimum === 'number'
        ? (value) => (value as string).length >= def.minimum!
        : null;
    case 'greater_than':
      if (typeof def.value !== 'number') return null;
      return def.inclusive
        ? (value) => (value as number) >= def.value!
        : (value) => (value as number) > def.value!;
    case 'number_format':
      return def.format === 'safeint' ? (value) => Number.isSafeInteger(value) : null;
    case 'custom':
      return customPredicate(def.fn);
    default:
      return null;
  }
}

/** A base test followed by the schema's checks, or ASK_ZOD if any check is unknown. */
function withChecks(def: Def, base: Accepts): Accepts {
  const checks: Accepts[] = [];
  for (const check of def.checks ?? []) {
    const compiled = compileCheck(check._zod.def);
    if (!compiled) return ASK_ZOD;
    checks.push(compiled);
  }
  if (checks.length === 0) return base;
  return (value) => base(value) && checks.every((check) => check(value));
}

function compileObject(def: Def): Accepts {
  const catchall = def.catchall as z.ZodType | undefined;
  // Only a loose object returns its input's keys unchanged; a stripping or strict one asks zod.
  if (!catchall || defOf(catchall).type !== 'unknown') return ASK_ZOD;
  const fields = Object.entries(def.shape as Record<string, z.ZodType>).map(([key, schema]) => ({
    key,
    optional: (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional',
    accepts: compile(schema),
  }));
  return (value) => {
    if (!isObject(value)) return false;
    for (const field of fields) {
      if (!(field.key in value) && !field.optional) return false;
      if (!field.accepts(value[field.key])) return false;
    }
    return true;
  };
}

function compile(schema: z.ZodType): Accepts {
  const def = defOf(schema);
  switch (def.type) {
    case 'unknown':
      return () => true;
    case 'string':
      return withChecks(def, (value) => typeof value === 'string');
    case 'number':
      return withChecks(def, (value) => typeof value === 'number' && Number.isFinite(value));
    case 'boolean':
      return withChecks(def, (value) => typeof value === 'boolean');
    case 'enum': {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return withChecks(def, (value) => values.has(value));
    }
    case 'literal': {
      const values = new Set(def.values as unknown[]);
      return withChecks(def, (value) => values.has(value));
    }
    case 'optional': {
      const inner = compile(def.innerType as z.ZodType);
      return withChecks(def, (value) => value === undefined || inner(value));
    }
    case 'nullable': {
      const inner = compile(def.innerType as z.ZodType);
      return withChecks(def, (value) => value === null || inner(value));
    }
    case 'array': {
      const element = compile(def.element as z.ZodType);
      return withChecks(def, (value) => Array.isArray(value) && value.every(element));
    }
    case 'union': {
      const options = (def.options as z.ZodType[]).map(compile);
      return withChecks(def, (value) => options.some((option) => option(value)));
    }
    case 'custom': {
      const predicate = customPredicate(def.fn as CheckDef['fn']);
      return predicate ? withChecks(def, predicate) : ASK_ZOD;
    }
    case 'object':
      return withChecks(def, compileObject(def));
    default:
      return ASK_ZOD;
  }
}

/** Compiles `schema` once; see the file comment for what `true` and `false` promise. */
export function acceptsAsIs(schema: z.ZodType): Accepts {
  return compile(schema);
}
