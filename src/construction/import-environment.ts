/**
 * `import --from tau2`: an execution environment's tasks (tau2-bench retail and airline) → source
 * records. The query is the task's user scenario, the system prompt the domain policy, the tools
 * the domain's; the trajectory is the reference actions, each executed in order on a fresh copy
 * of the domain database so every tool return is the environment's real output (errors included).
 */
import type { Environment } from '../execution/environment.js';
import type { MetaLine } from './case-record.js';
import type { SourceMessage, SourceRecord } from './source-record.js';
import type { Skip } from './step.js';

/** The part of an execution environment import reads (tools, policy, tasks, fresh sessions). */
export type ImportEnvironment = Pick<
  Environment,
  'id' | 'policy' | 'tools' | 'tasks' | 'openSession'
>;

/** Which tasks to import and whether to execute them. */
export interface EnvironmentImportOptions {
  /** Only tasks listed under this split (`train`, `test`); all tasks when absent. */
  taskSplit?: string | undefined;
  /** Run the actions in the environment (default); false marks every return as not executed. */
  execute: boolean;
}

/** The header that tells the planner whose words the query is. */
function queryOf(domain: string, instructions: string): string {
  // tau2 renders the scenario as `Instructions:` then tab-indented fields; the domain line repeats the header.
  const body = instructions
    .split('\n')
    .filter((line) => line.trim() !== 'Instructions:' && !/^\t*Domain: /.test(line))
    .map((line) => line.replace(/^\t/, ''))
    .join('\n');
  return `A customer contacts ${domain} customer service. Their situation, as tau2-bench writes it for the customer ("you" is the customer):\n${body}`;
}

type Task = ImportEnvironment['tasks'][number];

/** Why a task cannot be imported, or null when it can. */
function unusable(task: Task): string | null {
  const actions = task.criteria.actions ?? [];
  if (actions.length === 0)
    return 'no reference actions (the agent is expected to act without tools or to refuse)';
  if (actions.some((action) => action.requestor !== 'assistant'))
    return 'the reference has user-side actions, which a planner cannot take';
  return null;
}

/** The task's reference actions as a trajectory, each executed in order on one fresh session (or not at all). */
function executeActions(
  environment: ImportEnvironment,
  task: Task,
  execute: boolean,
): { messages: SourceMessage[]; errors: number; executed: boolean } {
  const session = execute ? environment.openSession() : null;
  const messages: SourceMessage[] = [];
  let errors = 0;
  for (const action of task.criteria.actions ?? []) {
    const call = {
      id: `${task.id}-${action.actionId}`,
      name: action.name,
      arguments: action.arguments,
    };
    const outcome = session?.callTool(action.name, action.arguments) ?? null;
    if (outcome?.error) errors += 1;
    messages.push(
      { role: 'assistant', content: '', tool_calls: [call] },
      {
        role: 'tool',
        tool_call_id: call.id,
        name: call.name,
        content: outcome?.content ?? null,
        error: outcome?.error ?? false,
      },
    );
  }
  return { messages, errors, executed: Boolean(session) };
}

/** Source records of an environment's tasks with at least one agent action, plus what was skipped and why. */
export function importEnvironment(
  environment: ImportEnvironment,
  options: EnvironmentImportOptions,
  seed: number,
): { records: SourceRecord[]; meta: MetaLine[]; skipped: Skip[] } {
  const domain = environment.id.split(':').pop() ?? environment.id;
  const records: SourceRecord[] = [];
  const meta: MetaLine[] = [];
  const skipped: Skip[] = [];
  for (const task of environment.tasks) {
    if (options.taskSplit && !task.splits.includes(options.taskSplit)) continue;
    const reason = unusable(task);
    if (reason) {
      skipped.push({ step: 'import', parent_id: `${environment.id}/${task.id}`, reason });
      continue;
    }
    const run = executeActions(environment, task, options.execute);
    const id = `tau2-${domain}-${task.id}`;
    records.push({
      id,
      source: 'tau2-bench',
      source_subset: domain,
      task_family: 'customer_service',
      task_category: domain,
      query: queryOf(domain, task.userScenario.instructions),
      system_prompt: environment.policy,
      tools: environment.tools.map((tool) => ({ ...tool })),
      messages: run.messages,
      files: [],
      tool_returns: run.executed ? 'executed' : 'absent',
    });
    meta.push({
      id,
      step: 'import',
      seed,
      parent_id: null,
      generated: {
        from: 'tau2',
        environment: environment.id,
        task_id: task.id,
        task_splits: task.splits.filter((split) => split !== 'base'),
        actions: task.criteria.actions?.length ?? 0,
        executed: run.executed,
        tool_errors: run.errors,
        purpose: task.purpose,
      },
      model: null,
      prompt_version: null,
    });
  }
  return { records, meta, skipped };
}
