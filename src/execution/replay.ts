/**
 * Scripted agents: `--agent replay:FILE` (one JSONL line per task: the actions to run in order and
 * what the agent says to the user) and the built-in `replay:gold` (every task's reference actions
 * and the strings its COMMUNICATE check requires). A replay runs the actions on a fresh copy of the
 * database and records the conversation an agent doing exactly that would have had. In a
 * dual-control environment (telecom) an action with `"requestor": "user"` is the user's own, done
 * on their device: it is recorded as a user turn with a tool call, as tau2 records it.
 */
import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
import { readLines } from '../jsonl-lines.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type {
  DatabaseState,
  Environment,
  ExecMessage,
  ExecTask,
  Termination,
} from './environment.js';
import { parseUntrustedJson } from '../json-depth.js';
import { runConversation, type AgentPlayer, type Turn, type UserPlayer } from './loop.js';

/** One task's script. */
export const ReplayScript = z.object({
  task_id: z.string().min(1),
  actions: z.array(
    z.object({
      name: z.string().min(1),
      arguments: z.record(z.string(), z.unknown()),
      requestor: z.enum(['assistant', 'user']).default('assistant'),
    }),
  ),
  messages: z.array(z.string()).default([]),
});
export type ReplayScript = z.infer<typeof ReplayScript>;

/** A replay agent: the script of each task it has one for. */
export interface ReplayAgent {
  /** `replay:gold` or `replay:<file>`, as given to `--agent`. */
  id: string;
  scripts: Map<string, ReplayScript>;
}

/** The built-in gold replay: each task's reference actions and its required messages (its `communicate_info`). */
export function goldReplay(environment: Environment): ReplayAgent {
  const scripts = new Map<string, ReplayScript>();
  for (const task of environment.tasks) {
    // The user's reference actions are replayed only where the user has tools (telecom).
    const actions = (task.criteria.actions ?? [])
      .filter((action) => action.requestor === 'assistant' || environment.userTools)
      .map((action) => ({
        name: action.name,
        arguments: action.arguments,
        requestor: action.requestor,
      }));
    scripts.set(task.id, {
      task_id: task.id,
      actions,
      messages: [...task.criteria.communicateInfo],
    });
  }
  return { id: 'replay:gold', scripts };
}

/** Reads a replay file; every bad line, duplicate or unknown task is reported as FILE:LINE: field: message. */
export async function readReplayFile(
  file: string,
  environment: Environment,
  limits: Limits = DEFAULT_LIMITS,
): Promise<ReplayAgent> {
  const known = new Set(environment.tasks.map((task) => task.id));
  const scripts = new Map<string, ReplayScript>();
  const issues: InputIssue[] = [];
  for await (const { line, text } of readLines(file, undefined, limits)) {
    let value: unknown;
    try {
      value = parseUntrustedJson(text, limits.jsonDepth);
    } catch (error) {
      issues.push({
        file,
        line,
        field: '(line)',
        message: `invalid JSON: ${(error as Error).message}`,
      });
      continue;
    }
    const parsed = ReplayScript.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        issues.push({
          file,
          line,
          field: issue.path.map(String).join('.') || '(line)',
          message: issue.message,
        });
      continue;
    }
    const id = parsed.data.task_id;
    const userAction = parsed.data.actions.findIndex((action) => action.requestor === 'user');
    if (userAction >= 0 && !environment.userTools)
      issues.push({
        file,
        line,
        field: `actions.${userAction}.requestor`,
        message: `${environment.id} has no user tools: "requestor": "user" needs a dual-control environment (tau2:telecom)`,
      });
    else if (!known.has(id))
      issues.push({
        file,
        line,
        field: 'task_id',
        message: `${environment.id} has no task "${id}"`,
      });
    else if (scripts.has(id))
      issues.push({ file, line, field: 'task_id', message: `task "${id}" is scripted twice` });
    else scripts.set(id, parsed.data);
  }
  if (issues.length > 0) throw new InputError(issues);
  if (scripts.size === 0)
    throw new InputError([
      { file, line: 1, field: '(file)', message: 'the replay file holds no task' },
    ]);
  return { id: `replay:${file}`, scripts };
}

/** What a replayed conversation left: its messages, how it ended and the final database. */
export interface ReplayOutcome {
  messages: ExecMessage[];
  termination: Termination;
  finalDatabase: DatabaseState;
}

/**
 * A script as an agent of the conversation loop: one turn per action (one tool call each), then
 * one turn per message, then an empty turn (done). It ignores what the tools answer, as a script
 * does; the loop's limits (tau2's 10 tool errors, 200 steps) apply to it as to a model agent.
 */
export function replayPlayer(task: ExecTask, script: ReplayScript): AgentPlayer {
  let next = 0;
  const turns: Turn[] = [
    ...script.actions.map((action, index) => ({
      content: null,
      toolCalls: [
        { id: `${task.id}-call-${index + 1}`, name: action.name, arguments: action.arguments },
      ],
      usage: null,
      cached: false,
    })),
    ...script.messages.map((text) => ({
      content: text,
      toolCalls: [],
      usage: null,
      cached: false,
    })),
  ];
  const done: Turn = { content: null, toolCalls: [], usage: null, cached: false };
  return async () => turns[next++] ?? done;
}

/**
 * Runs a script on a fresh session of the task. An agent-only script goes through the conversation
 * loop in solo mode, so tau2's limits (10 tool errors, 200 steps) end it as they end a model agent.
 * A dual-control script (telecom actions with `"requestor": "user"`) is applied in order, each call
 * on its requestor's side, as tau2's evaluator replays a task's reference actions.
 */
export async function replayTask(
  environment: Environment,
  task: ExecTask,
  script: ReplayScript,
  limits: { maxSteps?: number; maxErrors?: number } = {},
): Promise<ReplayOutcome> {
  if (script.actions.some((action) => action.requestor === 'user'))
    return replayDualControl(environment, task, script);
  const session = environment.openSession(task);
  const noUser: UserPlayer = async () => {
    throw new Error('a solo conversation has no user');
  };
  const result = await runConversation({
    agent: replayPlayer(task, script),
    user: noUser,
    session,
    solo: true,
    ...limits,
  });
  return {
    messages: result.messages,
    termination: result.termination,
    finalDatabase: session.database(),
  };
}

/** A dual-control script applied in order: user actions on the user's device, the rest on the agent's side. */
function replayDualControl(
  environment: Environment,
  task: ExecTask,
  script: ReplayScript,
): ReplayOutcome {
  const session = environment.openSession(task);
  const messages: ExecMessage[] = [];
  script.actions.forEach((action, index) => {
    const id = `${task.id}-call-${index + 1}`;
    const call = { id, name: action.name, arguments: action.arguments };
    const byUser = action.requestor === 'user';
    if (byUser && !session.callUserTool)
      throw new Error(`${environment.id} has no user tools (task ${task.id}, action ${index + 1})`);
    messages.push(
      byUser
        ? { role: 'user', content: '', tool_calls: [call] }
        : { role: 'assistant', content: null, tool_calls: [call] },
    );
    const outcome = byUser
      ? session.callUserTool!(action.name, action.arguments)
      : session.callTool(action.name, action.arguments);
    messages.push({
      role: 'tool',
      tool_call_id: id,
      name: action.name,
      content: outcome.content,
      error: outcome.error,
      ...(byUser ? { requestor: 'user' as const } : {}),
    });
  });
  for (const text of script.messages) messages.push({ role: 'assistant', content: text });
  return { messages, termination: 'agent_stop', finalDatabase: session.database() };
}
