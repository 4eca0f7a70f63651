/**
 * ToolSandbox replays (`--agent replay:FILE`): one JSONL line per conversation, `{"scenario",
 * "turns": [{"role": "agent", "tool_calls": [{"name", "arguments"}]} | {"role": "agent", "text"}
 * | {"role": "user", "text"}]}`, executed in order on a fresh copy of the scenario's world; the
 * user then ends the conversation. Scored without any model.
 */
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import { evaluate, type EvaluationResult } from './evaluation.js';
import type { ExecutionContext } from './execution-context.js';
import type { Scenario } from './scenarios.js';
import { ToolSandboxSession } from './session.js';
import type { Tool } from './toolbox.js';

const Turn = z.union([
  z.object({
    role: z.literal('agent'),
    tool_calls: z.array(z.object({ name: z.string(), arguments: z.unknown() })).min(1),
  }),
  z.object({ role: z.enum(['agent', 'user']), text: z.string() }),
]);

/** One replay line. */
export const ReplayLine = z.object({ scenario: z.string(), turns: z.array(Turn) });
export type ReplayLine = z.infer<typeof ReplayLine>;

/** Parses a replay file; a bad line is an InputError naming its line and field. */
export function parseReplays(file: string, text: string): ReplayLine[] {
  const lines: ReplayLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new InputError([{ file, line: i + 1, field: '', message: (error as Error).message }]);
    }
    const parsed = ReplayLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError([
        { file, line: i + 1, field: issue.path.map(String).join('.'), message: issue.message },
      ]);
    }
    lines.push(parsed.data);
  });
  return lines;
}

/**
 * The tools a scenario allows (its allow list less its deny list; the user's end_conversation
 * always), judged by the real tool's name so that scrambled agent-facing keys (toolsForAgent) stay.
 */
export function offered(scenario: Scenario, tools: ReadonlyMap<string, Tool>): Map<string, Tool> {
  const allow = scenario.toolAllowList;
  const deny = scenario.toolDenyList ?? [];
  return new Map(
    [...tools].filter(
      ([, { name }]) =>
        name === 'end_conversation' ||
        ((allow === null || allow.includes(name)) && !deny.includes(name)),
    ),
  );
}

/** Plays a replay on its scenario and evaluates it as ToolSandbox does. */
export function playReplay(
  scenario: Scenario,
  line: ReplayLine,
  tools: ReadonlyMap<string, Tool>,
  prepare?: (context: ExecutionContext) => void,
): { session: ToolSandboxSession; result: EvaluationResult } {
  const context = scenario.startingContext();
  prepare?.(context);
  const session = new ToolSandboxSession(context, offered(scenario, tools));
  let calls = 0;
  for (const turn of line.turns) {
    if (!session.active) break;
    if ('tool_calls' in turn)
      session.agentCalls(
        turn.tool_calls.map((call) => ({
          id: `call_${++calls}`,
          name: call.name,
          arguments: call.arguments,
        })),
      );
    else if (turn.role === 'agent') session.agentSays(turn.text);
    else session.userSays(turn.text);
  }
  if (session.active) session.userEnds();
  return { session, result: evaluate(scenario.evaluation, session.context) };
}
