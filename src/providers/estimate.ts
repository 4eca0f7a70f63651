/** Token estimates for budgets and rate caps (billing always uses the usage the endpoint reports). */
import { createRequire } from 'node:module';
import type * as Tokenizer from 'gpt-tokenizer';
import { canonicalJson } from '../canonical-json.js';
import type { ChatMessage, ProviderRequest, ToolDefinition } from './provider.js';
import { imageTokens } from '../dataset/image-size.js';

// Loaded on first use: its tables cost ~60 MB of memory, and most runs never estimate.
let tokenizer: typeof Tokenizer | undefined;
function countTokens(text: string, options: Parameters<typeof Tokenizer.countTokens>[1]): number {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as typeof Tokenizer;
  return tokenizer.countTokens(text, options);
}

/**
 * Tokens counted per image whose pixel size is unknown: a fixed allowance, the figure the APB legacy
 * step-wise harness used (1,280). An image with a readable header is estimated from its pixels.
 */
export const IMAGE_TOKEN_ALLOWANCE = 1280;
/** An image's estimated tokens: from its pixel size when known (`imageTokens`), else the flat allowance. */
export function imageTokensOf(file: { width?: number; height?: number }): number {
  return file.width && file.height
    ? imageTokens({ width: file.width, height: file.height })
    : IMAGE_TOKEN_ALLOWANCE;
}

/** Per-message framing tokens (role markers), as in OpenAI's chat counting recipe. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/**
 * Estimated input tokens of messages (and of the tool definitions sent with them): o200k text tokens + per-message
 * overhead + each image by its pixel size (else a fixed allowance); tool calls, tool results and
 * definitions count as their JSON text.
 */
export function estimateInputTokens(
  messages: ChatMessage[],
  tools: readonly ToolDefinition[] = [],
): number {
  const count = (text: string) => countTokens(text, NO_SPECIAL_TOKENS);
  let total = tools.length > 0 ? count(canonicalJson(tools)) : 0;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD_TOKENS;
    if (message.role === 'tool') {
      for (const result of message.results)
        total += MESSAGE_OVERHEAD_TOKENS + count(result.content);
      continue;
    }
    for (const part of message.parts)
      total += part.type === 'text' ? count(part.text) : imageTokensOf(part.file);
    if ('toolCalls' in message)
      for (const call of message.toolCalls)
        total += count(`${call.name}${canonicalJson(call.arguments)}`);
  }
  return total;
}

/**
 * Estimated tokens a request may use: its input plus the output cap when one is set (what
 * token-per-minute limits count).
 */
export function estimateRequestTokens(request: ProviderRequest): {
  inputTokens: number;
  maxOutputTokens: number;
  total: number;
} {
  const inputTokens = estimateInputTokens(request.messages, request.tools);
  const maxOutputTokens = request.sampling.maxOutputTokens ?? 0;
  return { inputTokens, maxOutputTokens, total: inputTokens + maxOutputTokens };
}
