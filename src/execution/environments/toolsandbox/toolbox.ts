/**
 * How ToolSandbox runs a tool: the call's keyword arguments bound to the tool's parameters
 * (a TypeError for a missing or unexpected one), the tool's own checks, and the outcome the agent
 * sees: `repr(result)`, or the exception's last traceback line (`ValueError: ...`).
 * A successful call leaves a trace `{tool_name, arguments, result}` for the evaluation.
 */
import type { ExecutionContext } from './execution-context.js';
import type { Role } from './schemas.js';

/** An exception a tool raises, by its Python class name. */
export class ToolException extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }

  /** The traceback's last line, as ToolSandbox reports it. */
  get line(): string {
    return this.message === '' ? this.type : `${this.type}: ${this.message}`;
  }
}

/** A parameter's type annotation as `typechecked` checks it (ToolSandbox's validators). */
export interface Annotation {
  types: PyTypeName[];
  /** `Optional[...]`: None passes. */
  none?: boolean;
  /** `Union[..., NotGiven]`: the parameter may be left out. */
  notGiven?: boolean;
}

/**
 * One parameter: its name, whether the tool requires it, its default (absent: Python's NOT_GIVEN
 * sentinel, left out of the call) and, for a `@typechecked` tool, its annotation.
 */
export interface Parameter {
  name: string;
  required: boolean;
  default?: unknown;
  annotation?: Annotation;
}

/** A ToolSandbox tool. */
export interface Tool {
  name: string;
  /** Roles the tool is listed to (the agent's tools; `end_conversation` is the user's). */
  visibleTo: Role[];
  parameters: Parameter[];
  /** The tool's body: throws ToolException where ToolSandbox raises. */
  run(context: ExecutionContext, args: Record<string, unknown>): unknown;
}

/** Python's `{type(value)}` text for validate_type's message. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<class 'NoneType'>";
  if (typeof value === 'boolean') return "<class 'bool'>";
  if (typeof value === 'number')
    return Number.isInteger(value) ? "<class 'int'>" : "<class 'float'>";
  if (typeof value === 'string') return "<class 'str'>";
  if (Array.isArray(value)) return "<class 'list'>";
  return "<class 'dict'>";
}

const TYPE_TEXT = {
  bool: "<class 'bool'>",
  str: "<class 'str'>",
  float: "<class 'float'>",
  int: "<class 'int'>",
};
export type PyTypeName = keyof typeof TYPE_TEXT;

/** Python's repr of an annotation: `<class 'str'>`, `typing.Optional[float]`, `typing.Union[]`. */
export function annotationText(annotation: Annotation): string {
  const { types, none = false, notGiven = false } = annotation;
  if (types.length === 1 && !none && !notGiven) return TYPE_TEXT[types[0]!];
  if (types.length === 1 && none && !notGiven) return `typing.Optional[${types[0]}]`;
  const members = [...types, ...(none ? ['NoneType'] : [])];
  if (notGiven) members.push('tool_sandbox.common.utils.NotGiven');
  return `typing.Union[${members.join(', ')}]`;
}

function passes(value: unknown, type: PyTypeName): boolean {
  if (type === 'bool') return typeof value === 'boolean';
  if (type === 'str') return typeof value === 'string';
  if (type === 'int')
    return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'boolean';
  return typeof value === 'number' || typeof value === 'boolean';
}

/** ToolSandbox's validate_type against an annotation (NOT_GIVEN, i.e. undefined, passes). */
export function validateAnnotation(value: unknown, name: string, annotation: Annotation): void {
  if (value === undefined && annotation.notGiven) return;
  if (value === null && annotation.none) return;
  if (value !== null && value !== undefined && annotation.types.some((t) => passes(value, t)))
    return;
  throw new ToolException(
    'TypeError',
    `Parameter '${name}' is of type '${pyTypeName(value)}', ` +
      `but expected '${annotationText(annotation)}'.`,
  );
}

/** ToolSandbox's validate_type (ints pass for floats, bools for ints and floats). */
export function validateType(value: unknown, name: string, type: PyTypeName): void {
  validateAnnotation(value, name, { types: [type] });
}

/** What a call returned: the text, the exception line if any, the result for the trace. */
export interface CallOutcome {
  content: string;
  exception: string | null;
  result: unknown;
  /** The arguments as bound (for the trace). */
  arguments: Record<string, unknown>;
}

/**
 * Binds the keyword arguments as ToolSandbox does, with its TypeError texts. The bound arguments
 * come in the signature's order with the defaults filled in and NOT_GIVEN ones left out
 * (ToolSandbox's `decorator` wrapper passes them so, and its tool trace records them so); a
 * `@typechecked` tool's annotations are then checked in that order.
 */
export function bindArguments(tool: Tool, args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new ToolException(
      'TypeError',
      `${tool.name}() argument after ** must be a mapping, not ${pyTypeName(args).slice(8, -2)}`,
    );
  const given = args as Record<string, unknown>;
  // ToolSandbox's tools are wrapped by `decorator`, which binds with inspect.Signature.bind:
  // the first missing parameter (in signature order) is reported before any unexpected one
  const missing = tool.parameters.find((p) => p.required && !Object.hasOwn(given, p.name));
  if (missing)
    throw new ToolException('TypeError', `missing a required argument: '${missing.name}'`);
  const unexpected = Object.keys(given).find((key) => !tool.parameters.some((p) => p.name === key));
  if (unexpected !== undefined)
    throw new ToolException('TypeError', `got an unexpected keyword argument '${unexpected}'`);
  const bound: Record<string, unknown> = {};
  for (const parameter of tool.parameters) {
    if (Object.hasOwn(given, parameter.name)) bound[parameter.name] = given[parameter.name];
    else if (Object.hasOwn(parameter, 'default')) bound[parameter.name] = parameter.default;
  }
  for (const parameter of tool.parameters)
    if (parameter.annotation)
      validateAnnotation(bound[parameter.name], parameter.name, parameter.annotation);
  return bound;
}
