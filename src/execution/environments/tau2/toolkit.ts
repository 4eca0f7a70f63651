/**
 * A tau2 toolkit: tools as plain functions over a session database, called the way tau2's
 * `Environment.get_response` calls them — the arguments bound like Python keyword arguments
 * (`Class.tool() missing 1 required positional argument: 'x'`), any exception returned to the
 * agent as `Error: <message>`, and a model result serialised as `json.dumps(model_dump())`.
 */
import type { z } from 'zod';
import type { ToolKind, ToolOutcome } from '../../environment.js';
import type { SessionDatabase } from './database.js';
import { pyJsonDumps } from './python-json.js';
import { pyTypeName, ToolError } from './python.js';

/** What a tool returns: text as is (tau2 passes strings through), or a model value dumped with its schema. */
export type ToolResult = string | { value: unknown; schema: z.core.$ZodType };

/** One tool of a tau2 domain, over the domain's state (a session database for retail and airline). */
export interface Tau2Tool<Db = SessionDatabase> {
  kind: ToolKind;
  /** Parameter names in the Python signature's order. */
  params: readonly string[];
  /** Parameters with a default value in the Python signature (telecom's `limit=12`): never reported missing. */
  optional?: readonly string[];
  run(db: Db, args: Record<string, unknown>): ToolResult;
}

/** A domain's tools by name; `className` is the Python class, named in TypeError messages. */
export interface Toolkit<Db = SessionDatabase> {
  className: string;
  tools: Readonly<Record<string, Tau2Tool<Db>>>;
}

function listNames(names: string[]): string {
  const quoted = names.map((name) => `'${name}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** Binds `**args` to a tool's parameters with CPython's checks and messages (unexpected keywords first, then missing ones). */
export function bindArguments(
  qualifiedName: string,
  params: readonly string[],
  args: unknown,
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    throw new ToolError(
      `${qualifiedName}() argument after ** must be a mapping, not ${pyTypeName(args)}`,
    );
  const given = args as Record<string, unknown>;
  const unexpected = Object.keys(given).find((key) => !params.includes(key));
  if (unexpected !== undefined)
    throw new ToolError(`${qualifiedName}() got an unexpected keyword argument '${unexpected}'`);
  const missing = params.filter((name) => !Object.hasOwn(given, name) && !optional.includes(name));
  if (missing.length > 0)
    throw new ToolError(
      `${qualifiedName}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${listNames(missing)}`,
    );
  return given;
}

/** Runs one tool call against a session database and returns what tau2 would return to the agent. */
export function callTool<Db>(
  toolkit: Toolkit<Db>,
  db: Db,
  name: string,
  args: unknown,
): ToolOutcome {
  try {
    const tool = Object.hasOwn(toolkit.tools, name) ? toolkit.tools[name] : undefined;
    if (!tool) throw new ToolError(`Tool '${name}' not found.`);
    const bound = bindArguments(`${toolkit.className}.${name}`, tool.params, args, tool.optional);
    const result = tool.run(db, bound);
    return {
      content: typeof result === 'string' ? result : pyJsonDumps(result.value, result.schema),
      error: false,
    };
  } catch (error) {
    if (error instanceof ToolError) return { content: `Error: ${error.message}`, error: true };
    // A write to the shared frozen base is a bug in a tool, never the agent's doing: surface it.
    if (
      error instanceof TypeError &&
      /read.only|not extensible|Cannot (add|delete|assign)/i.test(error.message)
    )
      throw error;
    // Any other exception is what Python would raise on odd arguments: tau2 returns it as text too.
    return { content: `Error: ${(error as Error).message}`, error: true };
  }
}
