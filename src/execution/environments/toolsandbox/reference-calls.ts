/**
 * A ToolSandbox scenario's reference tool calls, for the APB judgement of plans only (Table 3's
 * APB CR and grade; evaluator-side, never in a prompt): the calls its milestones expect, in
 * milestone order — a tool trace's `{tool_name, arguments}`, or the function named by an expected
 * agent-to-execution-environment message — under the names the agent is shown.
 */
import type { ReferenceAction } from '../../environment.js';
import type { ScenarioEvaluation } from './evaluation.js';

interface Target {
  database_namespace: string;
  target_dataframe: { rows: Array<Record<string, unknown>> } | null;
}

type Call = { name: string; arguments: Record<string, unknown> };

function traceCalls(text: string): Call[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((call) =>
    call && typeof call === 'object' && typeof call.tool_name === 'string'
      ? [{ name: call.tool_name as string, arguments: (call.arguments ?? {}) as Call['arguments'] }]
      : [],
  );
}

/**
 * The scenario's reference calls; `agentName` maps an execution-facing name to the agent-facing
 * one.
 */
export function referenceCalls(
  evaluation: ScenarioEvaluation,
  agentName: (name: string) => string,
): ReferenceAction[] {
  const calls: Call[] = [];
  for (const milestone of evaluation.milestones) {
    const { snapshot_constraints: constraints } = milestone as unknown as {
      snapshot_constraints: Target[];
    };
    for (const constraint of constraints) {
      for (const row of constraint.target_dataframe?.rows ?? []) {
        if (typeof row.tool_trace === 'string') calls.push(...traceCalls(row.tool_trace));
        else if (
          constraint.database_namespace === 'sandbox' &&
          row.recipient === 'execution_environment' &&
          typeof row.content === 'string'
        ) {
          const name = /^\s*(\w+)\(/.exec(row.content)?.[1];
          if (name) calls.push({ name, arguments: {} });
        }
      }
    }
  }
  return calls
    .filter((call) => call.name !== 'end_conversation')
    .map((call, i) => ({
      actionId: `milestone_call_${i}`,
      requestor: 'assistant' as const,
      name: agentName(call.name),
      arguments: call.arguments,
      compareArgs: null,
    }));
}
