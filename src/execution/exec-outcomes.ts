/**
 * What an exec run's executions came to, beside Table 3's means: how many reached reward 1, 0, no evaluated
 * reward, or an infrastructure error, and why the others fell short — counted reasons with one example each (an
 * infrastructure error by role and kind, a premature ending, each reward component at 0, NL assertions left
 * unjudged). The end-of-run summary and `exec-scores.json` show them. Pure.
 */
import { isSuccess } from '../metrics/executable.js';
import type { ExecutionLine } from './records.js';

/** The executions' outcomes (every line counts in exactly one of success, failed, unevaluated, infrastructure_errors). */
export interface ExecOutcomes {
  executions: number;
  /** Reward 1. */
  success: number;
  /** A reward below 1 (tau2 scores a premature ending 0). */
  failed: number;
  /** No reward: NL assertions in the basis not judged (no `--judge`, or an unreadable verdict). */
  unevaluated: number;
  /** A model call failed after its retries: no result (`--retry-errors` runs it again). */
  infrastructure_errors: number;
  /** Tool calls that returned an error, over every execution. */
  tool_errors: number;
}

/** A reason executions fell short, how often, and one example (task, mode, trial and what went wrong). */
export interface FailureReason {
  reason: string;
  count: number;
  example: string;
}

const COMPONENT_REASON: Record<'db' | 'communicate' | 'action' | 'nl_assertion', string> = {
  db: 'db: the final database differs from the expected one',
  communicate: 'communicate: required information not said',
  action: 'action: a reference action not called',
  nl_assertion: 'nl_assertion: an NL assertion not met',
};

type Details = {
  db_differences?: Array<{ collection?: string; key?: string }>;
  communicate_checks?: Array<{ info: string; met: boolean }>;
  action_checks?: Array<{ name: string; met: boolean }>;
  nl_checks?: Array<{ assertion: string; met: boolean }>;
  nl_status?: string;
  nl_error?: string | null;
};

/** What shows the component failed: the first differing entity, the first unmet check. */
function componentExample(component: string, details: Details): string {
  if (component === 'db')
    return (details.db_differences ?? [])
      .slice(0, 3)
      .map((entry) => `${entry.collection}/${entry.key}`)
      .join(', ');
  if (component === 'communicate')
    return `"${details.communicate_checks?.find((check) => !check.met)?.info ?? ''}" not said`;
  if (component === 'action')
    return `${details.action_checks?.find((check) => !check.met)?.name ?? ''} not called as expected`;
  return details.nl_checks?.find((check) => !check.met)?.assertion ?? '';
}

/** Why one execution did not reach reward 1 (none when it did). */
export function shortfallsOf(line: ExecutionLine): { reason: string; example: string }[] {
  const where = `task ${line.task_id} ${line.mode} trial ${line.trial}`;
  if (line.termination === 'infrastructure_error')
    return [
      {
        reason: `infrastructure_error: ${line.error?.role ?? 'model'} call failed (${line.error?.kind ?? 'unknown'})`,
        example: `${where}: ${line.error?.message ?? ''}`,
      },
    ];
  if (line.reward !== null && isSuccess(line.reward)) return [];
  if (line.termination !== 'agent_stop' && line.termination !== 'user_stop')
    return [
      {
        reason: `ended by ${line.termination}`,
        example: `${where}: ${line.steps} steps, ${line.tool_errors} tool error(s)`,
      },
    ];
  const details = line.reward_details as Details;
  const out = (Object.entries(COMPONENT_REASON) as [keyof typeof COMPONENT_REASON, string][])
    .filter(([component]) => line.reward_info[component] === 0)
    .map(([component, reason]) => ({
      reason,
      example: `${where}: ${componentExample(component, details)}`,
    }));
  if (line.reward === null) {
    const unreadable = details.nl_status === 'judge_error';
    out.push({
      reason: unreadable
        ? 'nl_assertion: the judge gave no readable verdict'
        : 'nl_assertion: not evaluated (no --judge)',
      example: `${where}${unreadable ? `: ${details.nl_error ?? ''}` : ''}`,
    });
  }
  return out;
}

/** The outcomes and the most frequent shortfalls (at most `top`, most frequent first, ties by first seen). */
export function execOutcomes(
  lines: Iterable<ExecutionLine>,
  top = 5,
): { outcomes: ExecOutcomes; failure_reasons: FailureReason[] } {
  const outcomes: ExecOutcomes = {
    executions: 0,
    success: 0,
    failed: 0,
    unevaluated: 0,
    infrastructure_errors: 0,
    tool_errors: 0,
  };
  const reasons = new Map<string, FailureReason>();
  for (const line of lines) {
    outcomes.executions += 1;
    outcomes.tool_errors += line.tool_errors;
    if (line.termination === 'infrastructure_error') outcomes.infrastructure_errors += 1;
    else if (line.reward === null) outcomes.unevaluated += 1;
    else if (isSuccess(line.reward)) outcomes.success += 1;
    else outcomes.failed += 1;
    for (const { reason, example } of shortfallsOf(line)) {
      const entry = reasons.get(reason) ?? { reason, count: 0, example };
      entry.count += 1;
      reasons.set(reason, entry);
    }
  }
  const failure_reasons = [...reasons.values()].sort((a, b) => b.count - a.count).slice(0, top);
  return { outcomes, failure_reasons };
}
