/**
 * One played scenario: the agent's and the user's turns written into the execution context's
 * message log the way ToolSandbox's roles write them (a tool call is an agent message to the
 * execution environment holding the call as Python code, answered by the environment with the
 * printed result and the call's trace), so that the evaluation sees the same log.
 */
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './frame.js';
import { pyJsonDumps, pyRepr } from './python-repr.js';
import { INDEX_COLUMN } from './schemas.js';
import { bindArguments, ToolException, type Tool } from './toolbox.js';
import { RAPID_API_TOOL_NAMES, SERVICE_UNAVAILABLE } from './tools-setting.js';

/** A tool call as an agent (or a replay line) makes it. */
export interface SessionToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** What the agent sees of one call. */
export interface SessionToolResult {
  id: string;
  name: string;
  content: string;
  error: boolean;
}

function callCode(id: string, name: string, args: unknown): string {
  return `${id}_parameters = ${pyRepr(args)}\n${id}_response = ${name}(**${id}_parameters)\nprint(repr(${id}_response))`;
}

/** A conversation over a scenario's world. */
export class ToolSandboxSession {
  constructor(
    readonly context: ExecutionContext,
    private readonly tools: ReadonlyMap<string, Tool>,
  ) {}

  /** Whether the user has ended the conversation. */
  get active(): boolean {
    const last = this.context.getDatabase('sandbox').at(-1);
    return last ? last.conversation_active !== false : true;
  }

  /** The index of the last message. */
  get lastIndex(): number {
    return this.context.maxSandboxMessageIndex;
  }

  /** The agent speaks to the user. */
  agentSays(text: string): void {
    this.add({ sender: 'agent', recipient: 'user', content: text, visible_to: ['agent', 'user'] });
  }

  /** The user speaks to the agent. */
  userSays(text: string): void {
    this.add({ sender: 'user', recipient: 'agent', content: text, visible_to: ['user', 'agent'] });
  }

  /** The agent's tool calls of one turn, executed in order; their results as the agent sees them. */
  agentCalls(calls: SessionToolCall[]): SessionToolResult[] {
    return this.execute('agent', calls);
  }

  /** The user's tool calls of one turn (its only tool is `end_conversation`), executed in order. */
  userCalls(calls: SessionToolCall[]): SessionToolResult[] {
    return this.execute('user', calls);
  }

  /** The user ends the conversation with its `end_conversation` tool. */
  userEnds(id = 'call_end'): void {
    this.execute('user', [{ id, name: 'end_conversation', arguments: {} }]);
  }

  private add(row: Row): void {
    this.context.addToDatabase('sandbox', [row]);
  }

  private execute(role: 'agent' | 'user', calls: SessionToolCall[]): SessionToolResult[] {
    for (const call of calls)
      this.add({
        sender: role,
        recipient: 'execution_environment',
        // the code names the execution-facing tool; openai_function_name keeps the agent's name
        content: callCode(call.id, this.tools.get(call.name)?.name ?? call.name, call.arguments),
        openai_tool_call_id: call.id,
        openai_function_name: call.name,
        visible_to: [role, 'execution_environment'],
      });
    const results = calls.map((call) => ({ call, ...this.run(role, call) }));
    for (const { call, content, exception, trace } of results)
      this.add({
        sender: 'execution_environment',
        recipient: role,
        content,
        openai_tool_call_id: call.id,
        openai_function_name: call.name,
        tool_call_exception: exception,
        tool_trace: trace === null ? null : [trace],
        visible_to: ['execution_environment', role],
      });
    return results.map(({ call, content, exception }) => ({
      id: call.id,
      name: call.name,
      content,
      error: exception !== null,
    }));
  }

  private run(
    role: 'agent' | 'user',
    call: SessionToolCall,
  ): { content: string; exception: string | null; trace: string | null } {
    const tool = this.tools.get(call.name);
    try {
      if (!tool || !tool.visibleTo.includes(role))
        throw new ToolException('NameError', `name '${call.name}' is not defined`);
      if (RAPID_API_TOOL_NAMES.includes(tool.name))
        throw new ToolException('ConnectionError', SERVICE_UNAVAILABLE);
      const args = bindArguments(tool, call.arguments);
      const result = tool.run(this.context, args);
      const trace = pyJsonDumps({ tool_name: tool.name, arguments: args, result });
      return { content: pyRepr(result), exception: null, trace };
    } catch (error) {
      if (!(error instanceof ToolException)) throw error;
      return { content: error.line, exception: error.line, trace: null };
    }
  }
}

/** The message log as plain rows (for executions.jsonl and --dump-state). */
export function messageLog(context: ExecutionContext): Row[] {
  return context.getDatabase('sandbox', { allHistory: true, keepIndex: true }).map((row) => ({
    [INDEX_COLUMN]: row[INDEX_COLUMN] ?? null,
    ...row,
  }));
}
