import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { findPrice } from '../providers/cost.js';
import type { ProviderRequest, ProviderResult } from '../providers/provider.js';
import {
  Budget,
  BudgetExceededError,
  costOfLine,
  estimateCallCost,
  priceOfSpec,
} from './budget.js';

const request = (text: string, maxOutputTokens?: number): ProviderRequest => ({
  messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
  promptVersion: 'test@1',
  json: false,
  sampling: maxOutputTokens ? { maxOutputTokens } : {},
  repeat: 0,
  role: 'planner',
});
const result = (inputTokens: number, outputTokens: number): ProviderResult => ({
  text: 'x',
  usage: { inputTokens, outputTokens },
  latencyMs: 1,
  finishReason: 'stop',
  attempts: 1,
  cached: false,
});
const gpt4o = findPrice({ provider: 'openai', model: 'gpt-4o' })!;

describe('prices of model specs', () => {
  it.each([
    ['baseline:heuristic', 'free'],
    ['rules', 'free'],
    ['openai-compatible:qwen3-vl-32b', null],
    ['not a spec', null],
  ])('%s → %s', (spec, expected) => expect(priceOfSpec(spec)).toBe(expected));

  it('prices a known model, 0 for free specs, null for unknown ones, 0 for a call without usage', () => {
    expect(priceOfSpec('openai:gpt-4o')).toEqual(gpt4o);
    expect(
      costOfLine('planner', 'openai:gpt-4o', { inputTokens: 1_000_000, outputTokens: 100_000 }),
    ).toBeCloseTo(2.5 + 1);
    expect(costOfLine('planner', 'baseline:oracle', null)).toBe(0);
    expect(
      costOfLine('judge', 'openai-compatible:local', { inputTokens: 10, outputTokens: 1 }),
    ).toBeNull();
    expect(costOfLine('judge', 'openai:gpt-4o', null)).toBe(0);
  });

  it('estimates a call from its prompt tokens and its output cap (or the role default)', () => {
    const capped = estimateCallCost(request('hello world', 2000), gpt4o);
    const uncapped = estimateCallCost(request('hello world'), gpt4o);
    expect(capped - uncapped).toBeCloseTo(((2000 - 1024) * gpt4o.output) / 1_000_000);
  });
});

describe('Budget', () => {
  it('admits calls while spent + in flight + next stays within the budget, then refuses everything', () => {
    const perCall = estimateCallCost(request('plan this', 1000), gpt4o);
    const budget = new Budget(perCall * 2.5);
    const gate = budget.gateFor('openai:gpt-4o');
    const first = gate.admit(request('plan this', 1000));
    const second = gate.admit(request('plan this', 1000));
    expect(() => gate.admit(request('plan this', 1000))).toThrow(BudgetExceededError);
    expect(budget.exhausted).toBe(true);
    first.settle(result(10, 10));
    second.settle(null);
    // Once refused, nothing new starts even though room was freed.
    expect(() => gate.admit(request('x', 1))).toThrow(BudgetExceededError);
    expect(budget.summary()).toMatchObject({
      refused_calls: 2,
      stopped: true,
      spent_usd: (10 * gpt4o.input + 10 * gpt4o.output) / 1_000_000,
    });
  });

  it('counts the estimate when the endpoint reports no usage; a settled ticket counts once', () => {
    const budget = new Budget(10);
    const gate = budget.gateFor('openai:gpt-4o');
    const ticket = gate.admit(request('plan this', 100));
    ticket.settle({ ...result(0, 0), usage: null });
    ticket.settle(result(1_000_000, 0));
    expect(budget.summary().spent_usd).toBeCloseTo(
      estimateCallCost(request('plan this', 100), gpt4o),
    );
  });

  it('lets free specs through and refuses an unpriced model before any call', () => {
    const budget = new Budget(0.01);
    expect(() => budget.gateFor('baseline:heuristic').admit(request('x'))).not.toThrow();
    expect(() => budget.gateFor('openai-compatible:local-model')).toThrow(UsageError);
    expect(() => new Budget(0)).toThrow(UsageError);
  });
});

describe('implausible usage and the budget', () => {
  it('a provider reporting prompt_tokens -100,000,000 (clamped to 0): counted at the estimate, so --max-cost 0.05 stops the run', async () => {
    const { saneUsage } = await import('../providers/usage-sanity.js');
    const sane = saneUsage({ inputTokens: -100_000_000, outputTokens: 1 });
    expect(sane.implausible).toBe(true);
    const ask = request('x'.repeat(40_000));
    const estimate = estimateCallCost(ask, gpt4o);
    const calls = (flag: boolean) => {
      const budget = new Budget(0.05);
      const gate = budget.gateFor('openai:gpt-4o');
      let made = 0;
      try {
        for (; made < 69; made += 1)
          gate.admit(ask).settle({
            ...result(sane.usage!.inputTokens, sane.usage!.outputTokens),
            ...(flag ? { usageImplausible: true } : {}),
          });
      } catch (error) {
        expect(error).toBeInstanceOf(BudgetExceededError);
      }
      return { made, summary: budget.summary() };
    };
    // Believing the clamped 0 lets every call through; the flag makes the budget count its estimate.
    expect(calls(false).made).toBe(69);
    const flagged = calls(true);
    expect(flagged.made).toBe(Math.floor(0.05 / estimate));
    expect(flagged.summary).toMatchObject({ stopped: true, implausible_usage_calls: flagged.made });
    expect(flagged.summary.spent_usd).toBeLessThanOrEqual(0.05);
  });
});
