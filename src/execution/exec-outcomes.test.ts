/** Outcomes and failure reasons of executions, by hand: each line lands in one outcome; reasons are counted and ranked. */
import { describe, expect, it } from 'vitest';
import { execOutcomes, shortfallsOf } from './exec-outcomes.js';
import type { ExecutionLine } from './records.js';

const base = (overrides: Partial<ExecutionLine>): ExecutionLine => ({
  schema_version: 1,
  task_id: '1',
  env: 'tau2:retail',
  mode: 'direct',
  model: 'm',
  user_model: 'm',
  trial: 0,
  reward: 1,
  reward_info: { db: 1, communicate: null, action: null, nl_assertion: 1 },
  termination: 'user_stop',
  stop_signal: '###STOP###',
  steps: 4,
  tool_errors: 0,
  messages: [],
  usage: {
    agent: { calls: 1, cached_calls: 0, input_tokens: 1, output_tokens: 1 },
    user: { calls: 1, cached_calls: 0, input_tokens: 1, output_tokens: 1 },
  },
  reward_details: {
    db_differences: [],
    communicate_checks: [],
    nl_checks: [],
    nl_status: 'judged',
  },
  apb: {
    nl_judge: null,
    agent_prompt_version: 'a',
    user_prompt_version: 'u',
    planner_prompt_version: null,
    started_at: '',
    finished_at: '',
  },
  ...overrides,
});

const success = base({});
const dbWrong = base({
  task_id: '2',
  reward: 0,
  reward_info: { db: 0, communicate: 0, action: null, nl_assertion: 1 },
  tool_errors: 2,
  reward_details: {
    db_differences: [{ collection: 'orders', key: '#W1' }],
    communicate_checks: [{ info: '12.5', met: false }],
  },
});
const cut = base({
  task_id: '3',
  reward: 0,
  reward_info: { db: null, communicate: null, action: null, nl_assertion: null },
  termination: 'max_steps',
  steps: 200,
});
const infra = base({
  task_id: '4',
  mode: 'refine',
  reward: null,
  termination: 'infrastructure_error',
  error: { role: 'user', kind: 'server', message: 'HTTP 500' },
});
const unjudged = base({
  task_id: '5',
  reward: null,
  reward_info: { db: 1, communicate: null, action: null, nl_assertion: null, reward_if_nl_met: 1 },
  reward_details: { db_differences: [], nl_status: 'not_evaluated' },
});

describe('execution outcomes', () => {
  it('puts every line in exactly one outcome and sums the tool errors', () => {
    expect(execOutcomes([success, dbWrong, cut, infra, unjudged]).outcomes).toEqual({
      executions: 5,
      success: 1,
      failed: 2,
      unevaluated: 1,
      infrastructure_errors: 1,
      tool_errors: 2,
    });
  });

  it('names why a line fell short, with where and what', () => {
    expect(shortfallsOf(success)).toEqual([]);
    expect(shortfallsOf(dbWrong)).toEqual([
      {
        reason: 'db: the final database differs from the expected one',
        example: 'task 2 direct trial 0: orders/#W1',
      },
      {
        reason: 'communicate: required information not said',
        example: 'task 2 direct trial 0: "12.5" not said',
      },
    ]);
    expect(shortfallsOf(cut)).toEqual([
      {
        reason: 'ended by max_steps',
        example: 'task 3 direct trial 0: 200 steps, 0 tool error(s)',
      },
    ]);
    expect(shortfallsOf(infra)).toEqual([
      {
        reason: 'infrastructure_error: user call failed (server)',
        example: 'task 4 refine trial 0: HTTP 500',
      },
    ]);
    expect(shortfallsOf(unjudged)).toEqual([
      { reason: 'nl_assertion: not evaluated (no --judge)', example: 'task 5 direct trial 0' },
    ]);
  });

  it('ranks reasons by count, ties in the order first seen, at most `top`', () => {
    const { failure_reasons: reasons } = execOutcomes([cut, dbWrong, cut, infra], 2);
    expect(reasons.map((reason) => [reason.reason, reason.count])).toEqual([
      ['ended by max_steps', 2],
      ['db: the final database differs from the expected one', 1],
    ]);
  });
});
