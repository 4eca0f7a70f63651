import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { redact } from '../redact.js';
import { buildProviderStack } from './registry.js';
import { readApiKey } from './vendor-access.js';

describe('buildProviderStack', () => {
  it('names the missing key variable', () => {
    expect(() => buildProviderStack('openai:gpt-4o', { env: {} })).toThrow(
      new UsageError(
        'OPENAI_API_KEY is not set: openai:gpt-4o needs an API key in the environment',
      ),
    );
    expect(() => buildProviderStack('anthropic:claude-sonnet-4-5', { env: {} })).toThrow(
      /ANTHROPIC_API_KEY is not set/,
    );
    expect(() =>
      buildProviderStack('google:gemini-2.5-flash', { env: { OPENAI_API_KEY: 'x' } }),
    ).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY is not set/);
  });

  it('accepts GEMINI_API_KEY for Google and no key for an OpenAI-compatible server', () => {
    expect(
      buildProviderStack('google:gemini-2.5-flash', {
        env: { GEMINI_API_KEY: 'gemini-key-123456' },
      }).id,
    ).toBe('google:gemini-2.5-flash');
    expect(
      buildProviderStack('openai-compatible:qwen3-vl-32b', {
        env: {},
        baseUrl: 'http://localhost:8000/v1',
      }).id,
    ).toBe('openai-compatible:qwen3-vl-32b');
  });

  it('requires a usable base URL for OpenAI-compatible servers and rejects credentials in it', () => {
    expect(() => buildProviderStack('openai-compatible:m', { env: {} })).toThrow(
      /needs a base URL \(--base-url URL/,
    );
    expect(() =>
      buildProviderStack('openai-compatible:m', { env: {}, baseUrl: 'localhost:8000' }),
    ).toThrow(/must start with http/);
    expect(() =>
      buildProviderStack('openai-compatible:m', { env: {}, baseUrl: 'not a url' }),
    ).toThrow(/is not a URL/);
    expect(() =>
      buildProviderStack('openai-compatible:m', { env: {}, baseUrl: 'http://u:p@host/v1' }),
    ).toThrow(/must not carry credentials/);
    expect(() =>
      buildProviderStack('openai-compatible:m', { env: {}, baseUrl: 'http://host/v1?key=abc' }),
    ).toThrow(/must not carry credentials/);
  });

  it('rejects an unknown provider with a UsageError', () => {
    expect(() => buildProviderStack('mistral:large', { env: {} })).toThrow(UsageError);
  });
});

describe('readApiKey', () => {
  it('registers the key it reads so every redaction masks it', () => {
    const key = readApiKey(
      { provider: 'openai-compatible', model: 'm' },
      { APB_API_KEY: ' local-gateway-token-77 ' },
    );
    expect(key).toBe('local-gateway-token-77');
    expect(redact('token local-gateway-token-77 rejected')).toBe('token *** rejected');
  });
});
