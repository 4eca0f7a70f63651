import { describe, expect, it } from 'vitest';
import { costFor, costOf, findPrice, loadPrices } from './cost.js';

describe('prices and cost', () => {
  it('loads the shipped table with an as_of date and a price for each proprietary model of the paper', () => {
    const table = loadPrices();
    expect(table.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const spec of [
      { provider: 'openai', model: 'gpt-4o' },
      { provider: 'openai', model: 'gpt-5' },
      { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' },
      { provider: 'google', model: 'gemini-2.5-flash' },
      { provider: 'google', model: 'gemini-2.5-pro' },
      { provider: 'google', model: 'gemini-3-pro-preview' },
    ] as const) {
      expect(findPrice(spec), spec.model).not.toBeNull();
    }
  });

  it.each([
    ['openai', 'gpt-4o-2024-08-06', 2.5],
    ['openai', 'gpt-4o-mini', 0.15],
    ['anthropic', 'claude-sonnet-4-5', 3],
    ['google', 'gemini-2.5-flash-lite', 0.1],
  ] as const)('matches %s:%s to the right row', (provider, model, input) => {
    expect(findPrice({ provider, model })?.input).toBe(input);
  });

  it('marks unsure prices', () => {
    expect(findPrice({ provider: 'google', model: 'gemini-3-pro-preview' })?.confidence).toBe(
      'unsure',
    );
  });

  it('returns null, never 0, for unknown models, local servers and missing usage', () => {
    expect(
      findPrice({ provider: 'openai-compatible', model: 'Qwen/Qwen3-VL-32B-Instruct' }),
    ).toBeNull();
    expect(
      costFor({ provider: 'openai', model: 'gpt-99' }, { inputTokens: 1, outputTokens: 1 }),
    ).toBeNull();
    expect(costFor({ provider: 'openai', model: 'gpt-4o' }, null)).toBeNull();
  });

  it('computes USD from usage, cached input at the cached rate', () => {
    const price = {
      provider: 'openai',
      model: 'x',
      input: 2,
      output: 10,
      cached_input: 0.5,
      confidence: 'high',
    } as const;
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 100_000 }, price)).toBeCloseTo(3);
    expect(
      costOf({ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 400_000 }, price),
    ).toBeCloseTo(1.2 + 0.2);
    expect(
      costOf(
        { inputTokens: 10, outputTokens: 0, cachedInputTokens: 10 },
        { ...price, cached_input: undefined },
      ),
    ).toBeCloseTo(0.00002);
  });
});
