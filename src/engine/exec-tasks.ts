/**
 * Which tasks of an environment an `apb exec` run takes: the split, then `--tasks`, then the
 * replay agent's scripts, then `--limit`; a task or script that is not there is a usage error.
 */
import type { Environment, ExecTask } from '../execution/environment.js';
import type { ReplayAgent } from '../execution/replay.js';
import { UsageError } from '../errors.js';

/** The tasks of a run: the split, then `--tasks` (in the environment's order), then the agent's scripts, then `--limit`. */
export function selectTasks(
  environment: Environment,
  options: { taskIds: string[] | null; split: string; limit: number | null },
  agent: ReplayAgent | null,
): ExecTask[] {
  const inSplit =
    options.split === 'all'
      ? environment.tasks
      : environment.tasks.filter((task) => task.splits.includes(options.split));
  let tasks = inSplit;
  if (options.taskIds) {
    const known = new Set(environment.tasks.map((task) => task.id));
    const unknown = options.taskIds.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new UsageError(
        `--tasks: ${environment.id} has no task ${unknown.map((id) => `"${id}"`).join(', ')}`,
      );
    const wanted = new Set(options.taskIds);
    tasks = inSplit.filter((task) => wanted.has(task.id));
  }
  if (agent && agent.id !== 'replay:gold') {
    const missing = options.taskIds?.filter((id) => !agent.scripts.has(id)) ?? [];
    if (missing.length > 0)
      throw new UsageError(
        `--tasks: ${agent.id} has no script for task ${missing.map((id) => `"${id}"`).join(', ')}`,
      );
    tasks = tasks.filter((task) => agent.scripts.has(task.id));
  }
  return options.limit === null ? tasks : tasks.slice(0, options.limit);
}
