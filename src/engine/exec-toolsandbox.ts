/**
 * `apb exec --env toolsandbox --agent replay:FILE` as a library function: the scripts read from
 * FILE, then played on the selected scenarios (execution/environments/toolsandbox/replay-run.ts)
 * while holding the run directory's one-writer lock, so a second writer on the same `outDir` is
 * refused as every writing command refuses it. Its files are the replay's own: `executions.jsonl`
 * (and an empty `plans.jsonl`) and, with `dumpStateDir`, each final world.
 */
import { readFileSync } from 'node:fs';
import type { ToolSandboxEnvironment } from '../execution/environments/toolsandbox/environment.js';
import { parseReplays } from '../execution/environments/toolsandbox/replay.js';
import {
  runToolSandboxReplay,
  type ToolSandboxReplaySummary,
} from '../execution/environments/toolsandbox/replay-run.js';
import { withRunLock } from '../rundir/lock.js';

/** What a ToolSandbox replay is asked to do. */
export interface ToolSandboxReplayExecutionSpec {
  /** The environment with its selected scenarios (those without a line in the file are skipped). */
  environment: ToolSandboxEnvironment;
  /** The replay JSONL file: one `{scenario, turns}` line per scripted scenario. */
  replayFile: string;
  /** The agent as the lines name it (`model`): the command gives `replay:FILE` as written. */
  agent: string;
  outDir: string;
  dumpStateDir: string | null;
  /** Aborted (first Ctrl-C): no further scenario starts; what was played is kept. */
  stop?: AbortSignal;
  /** Aborted (second Ctrl-C): the same, as a replay makes no call to cancel. */
  signal?: AbortSignal;
}

/** Counts of a ToolSandbox replay: scenarios played, their mean similarity, minefield hits. */
export type ToolSandboxReplayExecutionSummary = ToolSandboxReplaySummary;

/** Plays the replay file on the selected scenarios into `spec.outDir`, holding its lock. */
export async function replayToolSandbox(
  spec: ToolSandboxReplayExecutionSpec,
): Promise<ToolSandboxReplayExecutionSummary> {
  // A bad line is refused before the run directory is created or locked.
  const replays = parseReplays(spec.replayFile, readFileSync(spec.replayFile, 'utf8'));
  return withRunLock(spec.outDir, 'exec', () =>
    runToolSandboxReplay({
      environment: spec.environment,
      replays,
      agent: spec.agent,
      outDir: spec.outDir,
      dumpStateDir: spec.dumpStateDir,
      ...(spec.stop ? { stop: spec.stop } : {}),
      ...(spec.signal ? { signal: spec.signal } : {}),
    }),
  );
}
