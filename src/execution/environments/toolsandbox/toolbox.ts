/**
 * How ToolSandbox runs a tool: the call's keyword arguments bound to the tool's parameters
 * (Python's TypeError for a missing or unexpected one), the tool's own checks, and the outcome the
 * agent sees: `repr(result)`, or the exception's last traceback line (`ValueError: ...`).
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

/** One parameter: its name and whether the tool requires it. */
export interface Parameter {
  name: string;
  required: boolean;
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

/** ToolSandbox's validate_type (ints pass for floats, bools for ints and floats). */
export function validateType(value: unknown, name: string, type: keyof typeof TYPE_TEXT): void {
  const ok =
    (type === 'bool' && typeof value === 'boolean') ||
    (type === 'str' && typeof value === 'string') ||
    (type === 'int' &&
      ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'boolean')) ||
    (type === 'float' && (typeof value === 'number' || typeof value === 'boolean'));
  if (!ok)
    throw new ToolException(
      'TypeError',
      `Parameter '${name}' is of type '${pyTypeName(value)}', but expected '${TYPE_TEXT[type]}'.`,
    );
}

/** What a call returned: the text, the exception line if any, the result for the trace. */
export interface CallOutcome {
  content: string;
  exception: string | null;
  result: unknown;
  /** The arguments as bound (for the trace). */
  arguments: Record<string, unknown>;
}

/** Binds the keyword arguments as Python does, with its TypeError texts. */
export function bindArguments(tool: Tool, args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new ToolException(
      'TypeError',
      `${tool.name}() argument after ** must be a mapping, not ${pyTypeName(args).slice(8, -2)}`,
    );
  const given = args as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!tool.parameters.some((p) => p.name === key))
      throw new ToolException(
        'TypeError',
        `${tool.name}() got an unexpected keyword argument '${key}'`,
      );
  const missing = tool.parameters.filter((p) => p.required && !Object.hasOwn(given, p.name));
  if (missing.length > 0) {
    const names = missing.map((p) => `'${p.name}'`);
    const list =
      names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    throw new ToolException(
      'TypeError',
      `${tool.name}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${list}`,
    );
  }
  return given;
}
