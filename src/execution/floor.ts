/**
 * The floor of Table 3: a `do-nothing` agent that answers the user once, in words, without calling a
 * tool. It is a scripted agent like a replay (no model is called, no user simulator plays): its
 * conversation is one fixed reply, scored by the environment's own reward. What it reaches is what
 * a task's reward basis gives away for free (a database the task does not change, an assertion that
 * already holds), the line every mode's mean must be read against. Written to `floor.jsonl` beside
 * `executions.jsonl`, one line per selected task, remade whole on every run (it is deterministic).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import type { Environment, ExecTask } from './environment.js';
import { executionRecord, type ExecutionRecord } from './execution-record.js';
import { replayTask } from './replay.js';
import { computeReward, type RewardResult } from './reward.js';

/** The floor's file in an exec run directory. */
export const FLOOR_FILE = 'floor.jsonl';

/** The floor agent's name, as its lines and Table 3 rows carry it. */
export const FLOOR_AGENT = 'do-nothing';

/** What the do-nothing agent says, its one and only turn. */
export const FLOOR_REPLY = "I'm sorry, but I can't help with that.";

/**
 * NL assertions are not judged for the floor (that would be a model call). Where another component of
 * the basis is already 0 the product is 0 whatever they say, so the reward is known; otherwise it stays
 * null (unevaluated, with its upper bound), as for any run without an NL judge.
 */
function settled(result: RewardResult): RewardResult {
  if (result.reward !== null || result.reward_info.reward_if_nl_met !== 0) return result;
  return {
    reward: 0,
    reward_info: result.reward_info,
    details: { ...result.details, note: 'NL assertions not judged: another component is 0' },
  };
}

/** The floor's line for one task: the fixed reply, no tool call, the environment's reward. */
export async function floorExecution(
  environment: Environment,
  task: ExecTask,
): Promise<ExecutionRecord> {
  const started = new Date().toISOString();
  const script = { task_id: task.id, actions: [], messages: [FLOOR_REPLY] };
  const outcome = await replayTask(environment, task, script);
  const reward = settled(
    await computeReward({
      environment,
      task,
      messages: outcome.messages,
      termination: outcome.termination,
      finalDatabase: outcome.finalDatabase,
    }),
  );
  return executionRecord({
    env: environment.id,
    task,
    model: FLOOR_AGENT,
    trial: 0,
    messages: outcome.messages,
    termination: outcome.termination,
    reward,
    nlJudge: null,
    startedAt: started,
    finishedAt: new Date().toISOString(),
  });
}

/** Writes `DIR/floor.jsonl` for the selected tasks (replacing it whole); returns its lines. */
export async function writeFloor(
  dir: string,
  environment: Environment,
  tasks: readonly ExecTask[],
): Promise<ExecutionRecord[]> {
  const lines: ExecutionRecord[] = [];
  for (const task of tasks) lines.push(await floorExecution(environment, task));
  writeFloorLines(dir, lines);
  return lines;
}

/** Writes `DIR/floor.jsonl` whole from an environment's floor lines (ToolSandbox makes its own). */
export function writeFloorLines(dir: string, lines: readonly object[]): void {
  writeFileAtomic(
    path.join(dir, FLOOR_FILE),
    lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
  );
}

/** The floor file of a run directory, when it has one. */
export function floorPath(dir: string): string | null {
  const file = path.join(dir, FLOOR_FILE);
  return existsSync(file) ? file : null;
}
