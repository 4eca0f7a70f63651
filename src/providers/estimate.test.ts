import { describe, expect, it } from 'vitest';
import {
  estimateInputTokens,
  estimateRequestTokens,
  IMAGE_TOKEN_ALLOWANCE,
  MESSAGE_OVERHEAD_TOKENS,
} from './estimate.js';
import type { CaseFile } from '../dataset/case.js';

const image = {
  path: 'a.png',
  absolutePath: '/a.png',
  kind: 'image',
  mimeType: 'image/png',
  label: null,
  sha256: 'x',
  bytes: 1,
} satisfies CaseFile;

describe('estimate', () => {
  it('counts text tokens, message overhead and a fixed allowance per image', () => {
    const text = estimateInputTokens([
      { role: 'user', parts: [{ type: 'text', text: 'hello world' }] },
    ]);
    expect(text).toBe(MESSAGE_OVERHEAD_TOKENS + 2);
    const withImages = estimateInputTokens([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'hello world' },
          { type: 'image', file: image },
          { type: 'image', file: image },
        ],
      },
    ]);
    expect(withImages).toBe(text + 2 * IMAGE_TOKEN_ALLOWANCE);
  });

  it('does not throw on special-token text from untrusted data', () => {
    expect(
      estimateInputTokens([{ role: 'user', parts: [{ type: 'text', text: 'a <|endoftext|> b' }] }]),
    ).toBeGreaterThan(MESSAGE_OVERHEAD_TOKENS);
  });

  it('adds the output cap for a request', () => {
    const request = {
      messages: [],
      promptVersion: 'v',
      json: false,
      sampling: { maxOutputTokens: 100 },
      repeat: 0,
      role: 'planner' as const,
    };
    expect(estimateRequestTokens(request)).toEqual({
      inputTokens: 0,
      maxOutputTokens: 100,
      total: 100,
    });
  });
});
