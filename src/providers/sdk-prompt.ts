/**
 * Our chat messages → the AI SDK prompt (LanguageModelV3): tool calls and results, image bytes read now, and
 * the reasoning and vendor data (signatures) a model gave with a tool call sent back with it.
 */
import { toolCallInput } from './raw-arguments.js';
import type { LanguageModel } from 'ai';
import { ProviderError } from '../errors.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { PromptPart } from '../settings/prompt.js';
import { readImage } from './image-bytes.js';
import type { AssistantToolCallMessage, ChatMessage } from './provider.js';

type SdkLanguageModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type SdkPrompt = Parameters<SdkLanguageModel['doGenerate']>[0]['prompt'];
type SdkMessage = SdkPrompt[number];

/**
 * Chat messages → the SDK prompt; image bytes are read now (each at most `maxImageBytes`), and
 * images are accepted in user messages only.
 */
export async function toSdkPrompt(
  messages: ChatMessage[],
  provider: string,
  maxImageBytes: number = DEFAULT_LIMITS.imageBytes,
): Promise<SdkPrompt> {
  return Promise.all(
    messages.map(async (message): Promise<SdkMessage> => {
      if (message.role === 'tool') {
        return {
          role: 'tool',
          content: message.results.map((result) => ({
            type: 'tool-result' as const,
            toolCallId: result.callId,
            toolName: result.name,
            output: result.isError
              ? { type: 'error-text' as const, value: result.content }
              : { type: 'text' as const, value: result.content },
          })),
        };
      }
      if (message.role === 'user') {
        const content = await Promise.all(
          message.parts.map(async (part) => {
            if (part.type === 'text') return { type: 'text' as const, text: part.text };
            const image = await readImageOrFail(part.file, provider, maxImageBytes);
            return { type: 'file' as const, data: image.base64, mediaType: image.mediaType };
          }),
        );
        return {
          role: 'user',
          content: content.filter((part) => part.type !== 'text' || part.text !== ''),
        };
      }
      if (message.parts.some((part) => part.type === 'image')) {
        throw new ProviderError({
          provider,
          kind: 'client',
          retryable: false,
          message: `${provider}: image parts are only supported in user messages (got one in a ${message.role} message)`,
        });
      }
      const text = textOfParts(message.parts);
      if (message.role === 'system') return { role: 'system', content: text };
      return assistantMessage(message, text);
    }),
  );
}

/** An assistant turn: its reasoning (with signatures), its text, its tool calls (with their vendor data). */
function assistantMessage(
  message: Exclude<ChatMessage, { role: 'tool' }>,
  text: string,
): SdkMessage {
  const calls = 'toolCalls' in message ? message.toolCalls : [];
  const reasoning =
    ('reasoning' in message ? (message as AssistantToolCallMessage).reasoning : undefined) ?? [];
  return {
    role: 'assistant',
    content: [
      ...reasoning.map((part) => ({
        type: 'reasoning' as const,
        text: part.text,
        ...(part.vendorMetadata ? { providerOptions: part.vendorMetadata as never } : {}),
      })),
      ...(text !== '' || calls.length === 0 ? [{ type: 'text' as const, text }] : []),
      ...calls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: toolCallInput(call),
        ...(call.vendorMetadata ? { providerOptions: call.vendorMetadata as never } : {}),
      })),
    ],
  };
}

function textOfParts(parts: PromptPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
}

async function readImageOrFail(
  file: Parameters<typeof readImage>[0],
  provider: string,
  maxBytes: number,
) {
  try {
    return await readImage(file, maxBytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError({
      provider,
      kind: 'client',
      retryable: false,
      message: `${provider}: cannot send image: ${reason}`,
      cause: error,
    });
  }
}
