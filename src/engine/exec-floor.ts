/**
 * Table 3's do-nothing floor of an exec run, written beside its executions with no model call:
 * tau2's fixed reply under tau2's reward, ToolSandbox's own UnhelpfulAgent under its evaluation.
 */
import type { Environment, ExecTask } from '../execution/environment.js';
import type { ToolSandboxEnvironment } from '../execution/environments/toolsandbox/environment.js';
import { toolSandboxFloorLines } from '../execution/environments/toolsandbox/replay-run.js';
import { writeFloor, writeFloorLines } from '../execution/floor.js';

/** Writes `outDir`'s floor for the selected tasks of `environment` (none for other environments). */
export async function writeFloorOf(
  outDir: string,
  environment: Environment,
  tasks: readonly ExecTask[],
): Promise<void> {
  if (environment.id.startsWith('tau2:')) await writeFloor(outDir, environment, tasks);
  else if (environment.id === 'toolsandbox') {
    const sandbox = environment as unknown as ToolSandboxEnvironment;
    writeFloorLines(outDir, toolSandboxFloorLines(sandbox, tasks));
  }
}
