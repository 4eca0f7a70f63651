/**
 * `apb exec --env toolsandbox --agent replay:FILE`: each selected scenario that has a line in FILE
 * is played from its script on a fresh world at the frozen clock, scored by ToolSandbox's
 * evaluation without any model, and written to `executions.jsonl` (mode `replay`, trial 0; an
 * existing file is replaced, so a rerun gives the same bytes but the times); `--dump-state`
 * writes each final world.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../errors.js';
import type { ExecMessage } from '../../environment.js';
import { ExecStore } from '../../exec-store.js';
import { EXEC_SCHEMA_VERSION, type ExecutionLine } from '../../records.js';
import { setClock, parseClock } from './clock.js';
import { writeStateDump } from './dump-state.js';
import { scoreOf, type ToolSandboxEnvironment } from './environment.js';
import { playReplay, type ReplayLine } from './replay.js';
import type { ExecutionContext } from './execution-context.js';
import { TOOLS, toolsForAgent } from './tools.js';
import { FLOOR_AGENT } from '../../floor.js';

/** What ToolSandbox's UnhelpfulAgent says, its one turn. */
const UNHELPFUL_REPLY = 'I am sorry, but I cannot assist with that.';

/** What a replay run is asked to do. */
export interface ToolSandboxReplaySpec {
  environment: ToolSandboxEnvironment;
  replays: ReplayLine[];
  /** `replay:FILE`, as recorded in the lines' `model`. */
  agent: string;
  outDir: string;
  dumpStateDir: string | null;
  now?: () => Date;
  /** Aborted: no further scenario starts (what was played is written). */
  stop?: AbortSignal;
  /** Aborted: the same (a replay makes no call a harder stop could cancel). */
  signal?: AbortSignal;
}

/** Counts of a replay run. */
export interface ToolSandboxReplaySummary {
  scenarios: number;
  meanSimilarity: number | null;
  minefieldHits: number;
  executionsFile: string;
  /** True when a stop ended the run before every scenario with a script was played. */
  interrupted: boolean;
}

/** The agent's tool results in a played log, by call id. */
function resultsOf(context: ExecutionContext): Map<string, { content: string; error: boolean }> {
  const rows = context
    .getDatabase('sandbox', { allHistory: true })
    .filter((row) => row.sender === 'execution_environment' && row.recipient === 'agent');
  return new Map(
    rows.map((row) => [
      String(row.openai_tool_call_id),
      { content: String(row.content ?? ''), error: row.tool_call_exception !== null },
    ]),
  );
}

/** The messages of a played script, tool results included, as executions.jsonl records them. */
function messagesOf(line: ReplayLine, context: ExecutionContext): ExecMessage[] {
  const results = resultsOf(context);
  let calls = 0;
  return line.turns.flatMap((turn): ExecMessage[] => {
    if (!('tool_calls' in turn))
      return [
        turn.role === 'agent'
          ? { role: 'assistant', content: turn.text }
          : { role: 'user', content: turn.text },
      ];
    const made = turn.tool_calls.map((call) => ({
      id: `call_${++calls}`,
      name: call.name,
      arguments: call.arguments,
    }));
    const answered = made.flatMap((call): ExecMessage[] => {
      const result = results.get(call.id);
      return result ? [{ role: 'tool', tool_call_id: call.id, name: call.name, ...result }] : [];
    });
    return [{ role: 'assistant', content: null, tool_calls: made }, ...answered];
  });
}

const NO_CALLS = { calls: 0, cached_calls: 0, input_tokens: 0, output_tokens: 0 };

/** The executions.jsonl line of a played script. */
function replayExecution(
  agent: string,
  scenario: string,
  scored: ReturnType<typeof scoreOf>,
  messages: ExecMessage[],
  startedAt: string,
  now: () => Date,
): ExecutionLine {
  return {
    schema_version: EXEC_SCHEMA_VERSION,
    task_id: scenario,
    env: 'toolsandbox',
    mode: 'replay' as ExecutionLine['mode'],
    model: agent,
    user_model: 'none',
    trial: 0,
    reward: scored.reward,
    reward_info: scored.reward_info,
    termination: 'user_stop',
    stop_signal: 'end_conversation',
    steps: messages.length,
    tool_errors: messages.filter((m) => m.role === 'tool' && m.error).length,
    messages,
    usage: { agent: NO_CALLS, user: NO_CALLS },
    reward_details: scored.details,
    ...scored.fields,
    apb: {
      nl_judge: null,
      agent_prompt_version: null,
      user_prompt_version: null,
      planner_prompt_version: null,
      started_at: startedAt,
      finished_at: now().toISOString(),
    },
  };
}

/** A turn of the event loop, so a stop signal raised meanwhile is seen before the next scenario. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Plays and scores every selected scenario that has a script, one after the other. A stop (or an
 * abort of `signal`) lets the scenario being played finish and starts no other; the summary is
 * then `interrupted` when scenarios were left unplayed.
 */
export async function runToolSandboxReplay(
  spec: ToolSandboxReplaySpec,
): Promise<ToolSandboxReplaySummary> {
  const byScenario = new Map(spec.replays.map((line) => [line.scenario, line]));
  const tasks = spec.environment.tasks.filter((task) => byScenario.has(task.id));
  if (tasks.length === 0)
    throw new UsageError(`${spec.agent} has no line for any selected scenario`);
  const now = spec.now ?? (() => new Date());
  const clock = parseClock(spec.environment.clock);
  const stopped = () => Boolean(spec.stop?.aborted || spec.signal?.aborted);
  rmSync(path.join(spec.outDir, 'executions.jsonl'), { force: true });
  const store = new ExecStore(spec.outDir);
  const similarities: number[] = [];
  let hits = 0;
  try {
    for (const task of tasks) {
      if (stopped()) break;
      const started = now().toISOString();
      const script = byScenario.get(task.id)!;
      // the tools under the names the scenario's agent is offered (scrambled in tool-name variants)
      const offered = toolsForAgent(TOOLS, task.agentTools.names);
      const { session } = playReplay(task.scenario, script, offered, (c) => setClock(c, clock));
      const scored = scoreOf(task, session.context, 'user_stop');
      if (spec.dumpStateDir) writeStateDump(spec.dumpStateDir, task.id, session.context);
      const messages = messagesOf(script, session.context);
      similarities.push(scored.reward ?? 0);
      if (scored.fields?.minefield_hit) hits += 1;
      store.appendExecution(replayExecution(spec.agent, task.id, scored, messages, started, now));
      await nextTurn();
    }
  } finally {
    store.close();
  }
  const sum = similarities.reduce((a, b) => a + b, 0);
  return {
    scenarios: similarities.length,
    meanSimilarity: similarities.length > 0 ? sum / similarities.length : null,
    minefieldHits: hits,
    executionsFile: store.executionsPath,
    interrupted: similarities.length < tasks.length && stopped(),
  };
}

/**
 * Table 3's floor for ToolSandbox: ToolSandbox's own do-nothing agent (`UnhelpfulAgent`: one fixed
 * reply, then the user ends the conversation) on each selected scenario, played and scored without
 * a model at the run's clock, as `floor.jsonl` lines (execution/floor.ts's counterpart for tau2).
 */
export function toolSandboxFloorLines(
  environment: ToolSandboxEnvironment,
  tasks: readonly { id: string }[],
  now: () => Date = () => new Date(),
): ExecutionLine[] {
  const clock = parseClock(environment.clock);
  const byId = new Map(environment.tasks.map((task) => [task.id, task]));
  return tasks.flatMap((selected) => {
    const task = byId.get(selected.id);
    if (!task) return [];
    const started = now().toISOString();
    const script: ReplayLine = {
      scenario: task.id,
      turns: [{ role: 'agent', text: UNHELPFUL_REPLY }],
    };
    const offered = toolsForAgent(TOOLS, task.agentTools.names);
    const { session } = playReplay(task.scenario, script, offered, (c) => setClock(c, clock));
    const scored = scoreOf(task, session.context, 'user_stop');
    const messages = messagesOf(script, session.context);
    return [replayExecution(FLOOR_AGENT, task.id, scored, messages, started, now)];
  });
}
