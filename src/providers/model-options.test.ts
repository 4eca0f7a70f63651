import { describe, expect, it } from 'vitest';
import { FakeProvider } from './fake-provider.js';
import {
  loadModelDefaults,
  resolveSampling,
  withModelOptions,
  type ModelDefaults,
} from './model-options.js';
import type { ModelSpec } from './model-spec.js';

const spec = (text: string): ModelSpec => {
  const [provider, ...model] = text.split(':');
  return { provider: provider as ModelSpec['provider'], model: model.join(':') };
};

describe('resolveSampling with data/model-defaults.json (APB paper, Appendix H)', () => {
  it.each([
    ['openai:gpt-4o', {}, { temperature: 0 }],
    ['openai:gpt-5', {}, {}],
    ['anthropic:claude-sonnet-4-5-20250929', {}, { temperature: 0 }],
    [
      'google:gemini-2.5-flash',
      {},
      { temperature: 0, providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } } },
    ],
    ['google:gemini-2.5-pro', {}, { temperature: 0 }],
    [
      'google:gemini-3-pro-preview',
      {},
      {
        temperature: 0,
        providerOptions: { google: { thinkingConfig: { thinkingLevel: 'high' } } },
      },
    ],
    ['openai-compatible:OpenGVLab/InternVL3_5-38B', {}, { temperature: 0 }],
    ['openai-compatible:Qwen/Qwen3-VL-235B-A22B-Instruct', {}, { temperature: 0 }],
  ])('%s gets the paper defaults', (text, requested, expected) => {
    expect(resolveSampling(spec(text), requested).sampling).toEqual(expected);
  });

  it('moves the output cap to max_completion_tokens and drops temperature for OpenAI reasoning models', () => {
    for (const model of ['gpt-5', 'gpt-5-mini', 'o3', 'o4-mini', 'o1']) {
      const { sampling, warnings } = resolveSampling(spec(`openai:${model}`), {
        temperature: 0.7,
        maxOutputTokens: 4096,
        reasoningEffort: 'low',
      });
      expect(sampling, model).toEqual({
        providerOptions: { openai: { maxCompletionTokens: 4096, reasoningEffort: 'low' } },
      });
      expect(warnings.join(' '), model).toContain('temperature dropped');
    }
    expect(
      resolveSampling(spec('openai:gpt-5-chat-latest'), { maxOutputTokens: 10 }).sampling,
    ).toEqual({ temperature: 0, maxOutputTokens: 10 });
    expect(
      resolveSampling(spec('openai-compatible:openai/gpt-5'), { maxOutputTokens: 10 }).sampling,
    ).toEqual({
      providerOptions: { 'openai-compatible': { max_completion_tokens: 10 } },
    });
  });

  it('does not warn about a default it removed itself', () => {
    expect(resolveSampling(spec('openai:o3'), {}).warnings).toEqual([]);
  });

  it('turns an Anthropic thinking budget into the thinking option and drops temperature, or disables thinking at 0', () => {
    expect(
      resolveSampling(spec('anthropic:claude-sonnet-4-5'), {
        thinkingBudget: 2048,
        maxOutputTokens: 8000,
      }).sampling,
    ).toEqual({
      maxOutputTokens: 8000,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    });
    expect(
      resolveSampling(spec('anthropic:claude-sonnet-4-5'), { thinkingBudget: 0 }).sampling,
    ).toEqual({
      temperature: 0,
      providerOptions: { anthropic: { thinking: { type: 'disabled' } } },
    });
  });

  it('lets the request override defaults and explicit providerOptions override mapped ones', () => {
    const { sampling } = resolveSampling(spec('google:gemini-2.5-flash'), {
      temperature: 0.3,
      seed: 42,
      providerOptions: {
        google: { thinkingConfig: { thinkingBudget: 512, includeThoughts: false } },
        other: { x: 1 },
      },
    });
    expect(sampling).toEqual({
      temperature: 0.3,
      seed: 42,
      providerOptions: {
        google: { thinkingConfig: { thinkingBudget: 512, includeThoughts: false } },
        other: { x: 1 },
      },
    });
  });

  it('drops structural fields no rule maps for the model, with a warning', () => {
    const { sampling, warnings } = resolveSampling(spec('openai:gpt-4o'), {
      reasoningEffort: 'high',
      thinkingBudget: 100,
    });
    expect(sampling).toEqual({ temperature: 0 });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('reasoningEffort dropped for openai:gpt-4o');
  });

  it('treats null as "send nothing" and maps structural fields by rule only', () => {
    const table: ModelDefaults = {
      as_of: 'x',
      note: 'x',
      defaults: { temperature: 0.5 },
      models: [{ provider: 'openai', model: '^m$', sampling: { temperature: null, seed: 7 } }],
      rules: [
        {
          name: 'r',
          provider: 'openai',
          model: '^m',
          map: { thinkingBudget: { path: 'a.b', value: ['$value', { n: '$value' }] } },
        },
      ],
    };
    expect(resolveSampling(spec('openai:m'), { thinkingBudget: 3 }, table).sampling).toEqual({
      seed: 7,
      providerOptions: { openai: { a: { b: [3, { n: 3 }] } } },
    });
    expect(resolveSampling(spec('openai:other'), {}, table).sampling).toEqual({ temperature: 0.5 });
  });

  it('validates the file it loads', () => {
    expect(loadModelDefaults().models.length).toBeGreaterThanOrEqual(8);
  });
});

describe('withModelOptions', () => {
  it('passes resolved sampling down and surfaces warnings on the result', async () => {
    const inner = new FakeProvider({ script: [{ text: 'ok' }] });
    const provider = withModelOptions(inner, { spec: spec('openai:o3') });
    const result = await provider.generate({
      messages: [],
      promptVersion: 'v',
      json: false,
      sampling: { temperature: 1 },
      repeat: 0,
      role: 'judge',
    });
    expect(inner.requests[0]?.sampling).toEqual({});
    expect(result.warnings?.[0]).toContain('temperature dropped');
  });
});
