/** The bottom of a code stack: a transport (module, subprocess, HTTP) as a `Provider`. */
import type { Provider, ProviderResult } from '../provider.js';
import { readWireAnswer, toWireRequest, type WireRequest } from './wire.js';

/** Sends one request and resolves with the answer as parsed JSON; failures throw `ProviderError`. */
export type CodeTransport = (
  request: WireRequest,
  signal: AbortSignal | undefined,
) => Promise<unknown>;

/**
 * A provider whose every call is one request over `transport`, the answer read strictly; images
 * sent are at most `maxImageBytes` each.
 */
export function codeProvider(
  id: string,
  transport: CodeTransport,
  maxImageBytes?: number,
): Provider {
  return {
    id,
    async generate(request, signal): Promise<ProviderResult> {
      const started = Date.now();
      const wire = await toWireRequest(request, maxImageBytes);
      const turn = request.subject?.turn;
      // A case's answer names its case; a turn's tool calls get ids unique in the conversation.
      const answer = readWireAnswer(id, await transport(wire, signal), {
        ...(turn === undefined && request.subject ? { expectedId: request.subject.id } : {}),
        callPrefix: turn === undefined ? 'call_' : `call_${turn}_`,
      });
      return {
        text: answer.text,
        ...(answer.toolCalls.length > 0 ? { toolCalls: answer.toolCalls } : {}),
        usage: answer.usage,
        latencyMs: Date.now() - started,
        finishReason: answer.toolCalls.length > 0 ? 'tool-calls' : 'stop',
        attempts: 1,
        cached: false,
        ...(answer.costUsd !== undefined ? { costUsd: answer.costUsd } : {}),
      };
    },
  };
}
