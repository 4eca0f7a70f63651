/**
 * A replay runs through the same conversation loop as a model agent (tau2's solo mode), so tau2's
 * limits apply to it: ten failed tool calls end the conversation `too_many_errors` with reward 0,
 * as tau2-bench's orchestrator ends it; nine do not.
 */
import { describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../src/execution/registry.js';
import { goldReplay, replayTask, type ReplayScript } from '../../src/execution/replay.js';
import { computeReward } from '../../src/execution/reward.js';

const environment = loadEnvironment('tau2:airline');
const task = environment.tasks[0]!;
const gold = goldReplay(environment).scripts.get(task.id)!;

/** The gold script after `count` lookups of users that do not exist (each a tool error). */
function withFailedLookups(count: number): ReplayScript {
  const lookups = Array.from({ length: count }, (_, index) => ({
    name: 'get_user_details',
    arguments: { user_id: `nobody_${index}` },
  }));
  return { ...gold, actions: [...lookups, ...gold.actions] };
}

describe('a replay meets tau2 limits', () => {
  it('ends too_many_errors with reward 0 after ten failed lookups, before the rest of its script runs', async () => {
    const outcome = await replayTask(environment, task, withFailedLookups(10));
    const errors = outcome.messages.filter((message) => message.role === 'tool' && message.error);
    expect(errors).toHaveLength(10);
    expect(outcome.termination).toBe('too_many_errors');
    // Nothing after the tenth error was run: ten calls, ten results.
    expect(outcome.messages).toHaveLength(20);
    const reward = await computeReward({ environment, task, ...outcome });
    expect(reward.reward).toBe(0);
  });

  it('runs the whole script after nine failed lookups and scores it as the gold replay', async () => {
    const plain = await replayTask(environment, task, gold);
    const outcome = await replayTask(environment, task, withFailedLookups(9));
    expect(outcome.termination).toBe('agent_stop');
    const reward = await computeReward({ environment, task, ...outcome });
    const goldReward = await computeReward({ environment, task, ...plain });
    expect(goldReward.reward).toBe(1);
    expect(reward.reward).toBe(goldReward.reward);
  });
});
