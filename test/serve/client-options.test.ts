/**
 * A client's options against each upstream vendor: the shared ones become sampling, vendor-only ones that
 * vendor's options, one the vendor does not take a 400 naming the field as the client's API names it, and
 * every reasoning effort a vendor takes (`none` … `xhigh`) accepted.
 */
import { describe, expect, it } from 'vitest';
import { REASONING_EFFORTS } from '../../src/providers/provider.js';
import { BadRequestError, reasoningEffortOf, samplingOf } from '../../src/serve/client-options.js';
import { MESSAGES_NAMES } from '../../src/serve/messages-request.js';

describe('client options', () => {
  it('maps shared options to sampling and nothing more when nothing else is set', () => {
    expect(
      samplingOf('anthropic', { temperature: 0.2, top_p: 0.9, stop: ['X'], max_tokens: 5 }),
    ).toEqual({
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['X'],
      maxOutputTokens: 5,
    });
    expect(samplingOf('openai', {})).toEqual({});
  });

  it("puts vendor-only options in the vendor's own names", () => {
    expect(
      samplingOf('openai', {
        parallel_tool_calls: false,
        logprobs: true,
        top_logprobs: 3,
        user: 'u',
      }).providerOptions,
    ).toEqual({ openai: { parallelToolCalls: false, logprobs: 3, user: 'u' } });
    expect(samplingOf('anthropic', { parallel_tool_calls: false }).providerOptions).toEqual({
      anthropic: { disableParallelToolUse: true },
    });
    expect(
      samplingOf('openai-compatible', { parallel_tool_calls: true, top_k: 4 }).providerOptions,
    ).toEqual({
      'openai-compatible': { parallel_tool_calls: true, top_k: 4 },
    });
  });

  it('refuses what the upstream does not take, naming the field as the client sent it', () => {
    expect(() => samplingOf('anthropic', { seed: 1 })).toThrow(
      new BadRequestError(
        'seed: not supported by the upstream (anthropic) behind apb serve; remove it',
      ),
    );
    expect(() => samplingOf('google', { user: 'u' }, MESSAGES_NAMES)).toThrow(
      /^metadata\.user_id: not supported/,
    );
    expect(() => samplingOf('google', { logprobs: true })).toThrow(/^logprobs:/);
  });

  it('takes every vendor reasoning effort and refuses another value', () => {
    for (const effort of REASONING_EFFORTS)
      expect(reasoningEffortOf(effort, 'reasoning_effort')).toBe(effort);
    expect(REASONING_EFFORTS).toEqual(expect.arrayContaining(['none', 'xhigh']));
    expect(() => reasoningEffortOf('maximal', 'reasoning.effort')).toThrow(
      /^reasoning\.effort: must be one of none/,
    );
  });
});
