/**
 * Arguments against a tool's JSON schema, nested (the BFCL AST-checker idea, all the way down):
 * an object, required names present, no unknown names where the schema is closed, JSON types,
 * enums and consts, array items, nested objects, anyOf/oneOf/allOf. The one argument validator:
 * the rule check (`rule-check.ts`) and the judge's D8 check both call it. `skip` lets a caller
 * accept a value as it stands (the judge's data-flow placeholders); nothing is skipped by default.
 */
import type { Tool } from './case.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What is wrong with one argument (or with the arguments as a whole). */
export type ArgumentProblemKind =
  'missing-required' | 'unknown-argument' | 'wrong-type' | 'not-in-enum' | 'not-an-object';

/** One schema problem; `path` is `name`, `flights[0].date`, or '' for the arguments as a whole. */
export interface SchemaProblem {
  kind: ArgumentProblemKind;
  path: string;
  detail?: string;
}

/** How values are read: `skip(value)` true accepts a value without looking at it. */
export interface SchemaCheckOptions {
  skip?: (value: unknown) => boolean;
}

// Python-style type names appear in some tool banks; unknown names are not checked.
const TYPE_ALIASES: Record<string, string> = {
  str: 'string',
  text: 'string',
  int: 'integer',
  float: 'number',
  double: 'number',
  bool: 'boolean',
  list: 'array',
  dict: 'object',
  none: 'null',
};
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/** The JSON type names a schema node allows, or null when it names none we know. */
function allowedTypes(node: Loose): string[] | null {
  const raw = Array.isArray(node.type) ? node.type : [node.type];
  const types = raw
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.toLowerCase())
    .map((type) => (Object.hasOwn(TYPE_ALIASES, type) ? TYPE_ALIASES[type]! : type));
  if (types.length === 0 || !types.every((type) => JSON_TYPES.has(type))) return null;
  return node.nullable === true && !types.includes('null') ? [...types, 'null'] : types;
}

/** Whether a value has one of the given JSON types (`number` admits integers). */
export function hasJsonType(value: unknown, types: readonly string[]): boolean {
  return types.some((type) => {
    if (type === 'null') return value === null;
    if (type === 'array') return Array.isArray(value);
    if (type === 'object') return isObject(value);
    if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
    if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
    return typeof value === type;
  });
}

/** The JSON type of a value, as schema problems name it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);
const isClosed = (node: Loose) =>
  !(node.additionalProperties === true || isObject(node.additionalProperties));

class Walker {
  readonly problems: SchemaProblem[] = [];
  constructor(private readonly skip: (value: unknown) => boolean) {}

  push(kind: ArgumentProblemKind, path: string, detail?: string): void {
    this.problems.push(detail === undefined ? { kind, path } : { kind, path, detail });
  }

  /** One value against one schema node. */
  value(value: unknown, node: unknown, path: string): void {
    if (!isObject(node) || this.skip(value)) return;
    const branches = [node.anyOf, node.oneOf].find(Array.isArray);
    if (branches && branches.length > 0) {
      const fits = branches.some(
        (branch) => problemsOf(branch, value, path, this.skip).length === 0,
      );
      if (!fits)
        this.push(
          'wrong-type',
          path,
          `${JSON.stringify(value)?.slice(0, 60)} fits none of the allowed shapes`,
        );
      return;
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) this.value(value, part, path);
    const types = allowedTypes(node);
    if (types && !hasJsonType(value, types))
      return this.push(
        'wrong-type',
        path,
        `expected ${types.join(' | ')}, got ${describeType(value)}`,
      );
    if (Array.isArray(node.enum) && !node.enum.some((option) => option === value))
      this.push(
        'not-in-enum',
        path,
        `${JSON.stringify(value)} is not one of ${JSON.stringify(node.enum)}`,
      );
    if (node.const !== undefined && node.const !== value)
      this.push(
        'not-in-enum',
        path,
        `${JSON.stringify(value)} is not ${JSON.stringify(node.const)}`,
      );
    if (
      isObject(value) &&
      (isObject(node.properties) ||
        Array.isArray(node.required) ||
        isObject(node.additionalProperties))
    )
      this.object(value, node, path);
    if (Array.isArray(value) && node.items !== undefined) {
      value.forEach((item, index) =>
        this.value(
          item,
          Array.isArray(node.items) ? node.items[index] : node.items,
          `${path}[${index}]`,
        ),
      );
    }
  }

  /** An object's names against `properties`, `required` and `additionalProperties`. */
  object(value: Loose, node: Loose, path: string): void {
    const properties = isObject(node.properties) ? node.properties : null;
    const required = Array.isArray(node.required)
      ? node.required.filter((name): name is string => typeof name === 'string')
      : [];
    // Own keys only: a hostile answer's `constructor` or `__proto__` must not meet inherited members.
    for (const name of required)
      if (!Object.hasOwn(value, name) || value[name] === undefined)
        this.push('missing-required', join(path, name));
    if (!properties && !isObject(node.additionalProperties)) return;
    for (const [name, item] of Object.entries(value)) {
      const child = properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (child !== undefined) this.value(item, child, join(path, name));
      else if (isObject(node.additionalProperties))
        this.value(item, node.additionalProperties, join(path, name));
      // Unspecified additionalProperties counts as closed: tool APIs reject names they do not define.
      else if (isClosed(node)) this.push('unknown-argument', join(path, name));
    }
  }
}

function problemsOf(
  node: unknown,
  value: unknown,
  path: string,
  skip: (value: unknown) => boolean,
): SchemaProblem[] {
  const walker = new Walker(skip);
  walker.value(value, node, path);
  return walker.problems;
}

/** Whether a tool's `parameters` is a schema the validator can read (it lists properties or required names). */
export function hasArgumentSchema(tool: Tool): boolean {
  const schema = tool.parameters;
  return isObject(schema) && (isObject(schema.properties) || Array.isArray(schema.required));
}

/** Every problem of one call's arguments against a tool's parameter schema (the top level must be an object). */
export function argumentSchemaProblems(
  tool: Tool,
  args: unknown,
  options: SchemaCheckOptions = {},
): SchemaProblem[] {
  if (!isObject(args))
    return [{ kind: 'not-an-object', path: '', detail: `arguments are ${describeType(args)}` }];
  const walker = new Walker(options.skip ?? (() => false));
  walker.object(args, tool.parameters ?? {}, '');
  return walker.problems;
}

/**
 * Whether a called name is a listed tool (exact match). A case that lists no tool at all keeps
 * its tools in the system prompt (real-traffic data), so there a name counts as listed when the
 * system prompt spells it out as a whole word.
 */
export function isListedTool(
  input: { tools: readonly Tool[]; systemPrompt: string | null },
  name: string,
): boolean {
  const { tools, systemPrompt } = input;
  if (tools.length > 0) return tools.some((tool) => tool.name === name);
  if (!systemPrompt || !name) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-])`).test(systemPrompt);
}
