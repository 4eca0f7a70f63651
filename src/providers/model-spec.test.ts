import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { formatModelSpec, isProviderId, parseModelSpec } from './model-spec.js';

describe('parseModelSpec', () => {
  it.each([
    ['openai:gpt-4o', { provider: 'openai', model: 'gpt-4o' }],
    [
      'anthropic:claude-sonnet-4-5-20250929',
      { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' },
    ],
    ['google:gemini-3-pro-preview', { provider: 'google', model: 'gemini-3-pro-preview' }],
    ['openai-compatible:llama3.2:3b', { provider: 'openai-compatible', model: 'llama3.2:3b' }],
    ['openai-compatible:openai/gpt-4o', { provider: 'openai-compatible', model: 'openai/gpt-4o' }],
    [' openai : gpt-4o ', { provider: 'openai', model: 'gpt-4o' }],
  ])('parses %s', (text, expected) => {
    expect(parseModelSpec(text)).toEqual(expected);
  });

  it.each([
    [
      'mistral:large',
      /unknown model provider "mistral".*openai, anthropic, google, openai-compatible/,
    ],
    ['baseline:heuristic', /"baseline" is not a model provider here/],
    ['rules', /"rules" is not a model provider here/],
    ['gpt-4o', /unknown model provider "gpt-4o"/],
    ['openai:', /has no model name: expected openai:MODEL, e.g. openai:gpt-4o/],
  ])('rejects %s with a UsageError', (text, message) => {
    expect(() => parseModelSpec(text)).toThrow(UsageError);
    expect(() => parseModelSpec(text)).toThrow(message);
  });

  it('round-trips and recognises ids', () => {
    expect(formatModelSpec(parseModelSpec('google:gemini-2.5-pro'))).toBe('google:gemini-2.5-pro');
    expect(isProviderId('anthropic')).toBe(true);
    expect(isProviderId('toString')).toBe(false);
  });
});
