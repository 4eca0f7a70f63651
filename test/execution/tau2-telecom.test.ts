/**
 * tau2:telecom against tau2-bench's own code. The fixtures (`test/fixtures/tau2-telecom/`) were
 * made by running tau2's telecom tools, user tools, environment (`set_state`, `get_response`,
 * `sync_tools`, `run_env_assertion`) and its evaluator's reward rules (EnvironmentEvaluator's DB
 * check and env assertions, ActionEvaluator's `compare_with_tool_call`, the product over
 * `reward_basis`) on every base and small task: the gold replay (every reference action, the user's
 * on the phone, in order), and two perturbations whose expected rewards are therefore what tau2's
 * code gives — the last user action left out, and the first agent action with an argument changed
 * (a number + 1, a string replaced by "WRONG"). apb's replay must give the same tool texts, the
 * same final phone, the same DB verdict and the same rewards.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExecTask } from '../../src/execution/environment.js';
import { loadEnvironment } from '../../src/execution/registry.js';
import { goldReplay, replayTask, type ReplayScript } from '../../src/execution/replay.js';
import { computeReward } from '../../src/execution/reward.js';

interface Outcome {
  reward: number;
  db_match: boolean;
  env_assertions: boolean[];
  actions: boolean[];
}
interface FixtureTask {
  task_id: string;
  outputs: { content: string; error: boolean }[];
  final_user_db: unknown;
  gold: Outcome;
  without_last_user_action?: Outcome & { dropped: number };
  agent_action_wrong_argument?: Outcome & { index: number; argument: string; value: unknown };
}

const fixture = (split: string): FixtureTask[] =>
  JSON.parse(
    readFileSync(
      new URL(`../fixtures/tau2-telecom/tau2-replays-${split}.json`, import.meta.url),
      'utf8',
    ),
  ) as FixtureTask[];

const environment = loadEnvironment('tau2:telecom');
const gold = goldReplay(environment);
const taskOf = (id: string): ExecTask => environment.tasks.find((task) => task.id === id)!;

/** A JS number cannot say 2.0: refuel_data echoes an integral amount as `2` where tau2 echoes the `2.0` it was sent. */
const echoed = (text: string) => text.replace(/(\d+)\.0 GB/g, '$1 GB');

async function score(task: ExecTask, script: ReplayScript) {
  const outcome = await replayTask(environment, task, script);
  const reward = await computeReward({ environment, task, ...outcome });
  return { outcome, reward };
}

function expectOutcome(result: Awaited<ReturnType<typeof score>>['reward'], expected: Outcome) {
  expect(result.reward).toBe(expected.reward);
  expect(result.details.env_assertion_checks?.map((check) => check.met)).toEqual(
    expected.env_assertions,
  );
  expect(result.details.action_checks.map((check) => check.met)).toEqual(expected.actions);
  expect(result.details.db_differences.length === 0).toBe(expected.db_match);
}

describe('tau2:telecom', () => {
  it('has the base (114), small (20) and full (2,285) splits and the policy as tau2 builds it', () => {
    expect(environment.splits.base).toHaveLength(114);
    expect(environment.splits.small).toHaveLength(20);
    expect(environment.splits.full).toHaveLength(2285);
    expect(environment.tasks).toHaveLength(2285);
    expect(environment.policy.startsWith('<main_policy>\n')).toBe(true);
    expect(environment.policy).toContain('\n</main_policy>\n<tech_support_policy>\n');
    expect(environment.userTools?.map((tool) => tool.name)).toContain('toggle_airplane_mode');
    expect(environment.tools.map((tool) => tool.name)).not.toContain('toggle_airplane_mode');
  });

  describe.each(['base', 'small'])('the %s split, replayed', (split) => {
    const tasks = fixture(split);

    it('covers the split', () => {
      expect(tasks.map((task) => task.task_id).sort()).toEqual(
        [...environment.splits[split]!].sort(),
      );
    });

    it("gives the gold replay tau2-bench's tool texts, final phone and reward 1.0 for every task", async () => {
      let solved = 0;
      for (const expected of tasks) {
        const task = taskOf(expected.task_id);
        const { outcome, reward } = await score(task, gold.scripts.get(task.id)!);
        const outputs = outcome.messages.flatMap((message) =>
          message.role === 'tool' ? [{ content: message.content, error: message.error }] : [],
        );
        expect(outputs).toEqual(
          expected.outputs.map((output) => ({ ...output, content: echoed(output.content) })),
        );
        expect(outcome.finalDatabase.toJson().user).toEqual(expected.final_user_db);
        expectOutcome(reward, expected.gold);
        if (reward.reward === 1) solved += 1;
      }
      expect(solved).toBe(tasks.length);
    });

    it('scores a replay without its last user action as tau2-bench does', async () => {
      const cases = tasks.filter((task) => task.without_last_user_action);
      expect(cases.length).toBeGreaterThan(0);
      for (const expected of cases) {
        const task = taskOf(expected.task_id);
        const script = gold.scripts.get(task.id)!;
        const dropped = expected.without_last_user_action!.dropped;
        const { reward } = await score(task, {
          ...script,
          actions: script.actions.filter((_, index) => index !== dropped),
        });
        expectOutcome(reward, expected.without_last_user_action!);
      }
    });

    it('scores a replay with a wrong agent argument as tau2-bench does', async () => {
      const cases = tasks.filter((task) => task.agent_action_wrong_argument);
      expect(cases.length).toBeGreaterThan(0);
      for (const expected of cases) {
        const task = taskOf(expected.task_id);
        const script = gold.scripts.get(task.id)!;
        const wrong = expected.agent_action_wrong_argument!;
        const actions = script.actions.map((action, index) =>
          index === wrong.index
            ? { ...action, arguments: { ...action.arguments, [wrong.argument]: wrong.value } }
            : action,
        );
        const { reward } = await score(task, { ...script, actions });
        expectOutcome(reward, wrong);
      }
    });
  });
});
