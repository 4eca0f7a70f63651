/**
 * D8: argument checks against each called tool's JSON schema (the BFCL AST-checker idea, top
 * level only): an object, required present, no unknown names, JSON types, enum values. A
 * placeholder for an earlier step's output satisfies any type and any enum (data flow in a plan).
 */
import type { Tool } from '../../dataset/case.js';
import { predictedCalls } from './answer-calls.js';
import type { Check } from './check.js';
import type { ArgumentProblem, Findings } from './findings.js';
import { isPlaceholder } from './placeholders.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => value !== null && typeof value === 'object' && !Array.isArray(value);

// Python-style type names appear in some tool banks; unknown names are not checked.
const TYPE_ALIASES: Record<string, string> = {
  str: 'string', text: 'string', int: 'integer', float: 'number', double: 'number', bool: 'boolean',
  list: 'array', dict: 'object', none: 'null',
};
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/** The JSON type names a schema node allows, or null when it names none we know. */
function allowedTypes(node: unknown): string[] | null {
  if (!isObject(node)) return null;
  const raw = Array.isArray(node.type) ? node.type : [node.type];
  const types = raw
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.toLowerCase())
    .map((type) => (Object.hasOwn(TYPE_ALIASES, type) ? TYPE_ALIASES[type]! : type));
  return types.length > 0 && types.every((type) => JSON_TYPES.has(type)) ? types : null;
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

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The problems of one call's arguments against one tool's schema; `step` is the call's 1-based position. */
export function argumentProblems(tool: Tool, args: unknown, step: number): ArgumentProblem[] {
  const schema = tool.parameters;
  const properties = isObject(schema?.properties) ? schema.properties : null;
  const required = Array.isArray(schema?.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const problem = (kind: ArgumentProblem['kind'], argument: string, detail?: string): ArgumentProblem =>
    detail === undefined ? { step, tool: tool.name, kind, argument } : { step, tool: tool.name, kind, argument, detail };
  if (!isObject(args)) return [problem('not-an-object', '', `arguments are ${describeType(args)}`)];
  // Own keys only: a hostile answer's `constructor` or `__proto__` must not meet inherited members.
  const problems = required.filter((name) => !Object.hasOwn(args, name) || args[name] === undefined).map((name) => problem('missing-required', name));
  if (!properties) return problems;
  // Unspecified additionalProperties counts as closed: tool APIs reject names they do not define.
  const open = schema?.additionalProperties === true || isObject(schema?.additionalProperties);
  for (const [name, value] of Object.entries(args)) {
    const node = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (node === undefined) {
      if (!open) problems.push(problem('unknown-argument', name));
      continue;
    }
    if (isPlaceholder(value)) continue;
    const types = allowedTypes(node);
    if (types && !hasJsonType(value, types)) problems.push(problem('wrong-type', name, `expected ${types.join(' | ')}, got ${describeType(value)}`));
    const allowed = isObject(node) && Array.isArray(node.enum) ? node.enum : null;
    if (allowed && !allowed.some((option) => option === value)) problems.push(problem('not-in-enum', name, `${JSON.stringify(value)} is not one of ${JSON.stringify(allowed)}`));
  }
  return problems;
}

/** Whether a tool's `parameters` is a schema this check can read (it lists properties or required names). */
function hasSchema(tool: Tool): boolean {
  const schema = tool.parameters;
  return isObject(schema) && (isObject(schema.properties) || Array.isArray(schema.required));
}

/** D8 finding: problems of every call to a listed tool that has a JSON schema. */
export const argumentsCheck: Check<Findings['arguments']> = {
  code: 'D8',
  description: "arguments match the called tool's JSON schema (required, unknown, types, enums)",
  run(caseItem, parsed) {
    const tools = new Map(caseItem.input.tools.map((tool) => [tool.name, tool]));
    let checkedCalls = 0;
    const problems: ArgumentProblem[] = [];
    predictedCalls(parsed).forEach((call, index) => {
      const tool = tools.get(call.name);
      if (!tool || !hasSchema(tool)) return;
      checkedCalls += 1;
      problems.push(...argumentProblems(tool, call.arguments, index + 1));
    });
    return { checkedCalls, problems };
  },
};
