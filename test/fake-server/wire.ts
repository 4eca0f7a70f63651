/** The three wire formats the fake server speaks: request parsing into one neutral view, and reply/error bodies. */
import { createHash } from 'node:crypto';

/** Which vendor API a request came in on. */
export type Wire = 'openai' | 'anthropic' | 'gemini';

/** An image as it arrived, decoded from base64. */
export interface ReceivedImage {
  mimeType: string;
  byteLength: number;
  sha256: string;
}

/** One message of a request, vendor shape removed. */
export interface ReceivedMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
  images: ReceivedImage[];
}

/** A request in vendor-neutral form, for responders and assertions. */
export interface ParsedRequest {
  wire: Wire;
  model: string | null;
  messages: ReceivedMessage[];
  /** All message text joined, handy for picking a reply by case. */
  text: string;
  /** The request asked for a JSON reply (OpenAI `response_format`, Gemini `responseMimeType`). */
  jsonMode: boolean;
  temperature: number | undefined;
  maxTokens: number | undefined;
}

/** Picks the wire from the path: `/v1/chat/completions` (and any `…/chat/completions`), `/v1/messages`, `/v1beta/models/M:generateContent`. */
export function wireOf(path: string): { wire: Wire; model: string | null } | null {
  if (/\/chat\/completions$/.test(path)) return { wire: 'openai', model: null };
  if (/\/v1\/messages$/.test(path)) return { wire: 'anthropic', model: null };
  const gemini = /\/models\/([^/:]+):generateContent$/.exec(path);
  return gemini ? { wire: 'gemini', model: decodeURIComponent(gemini[1] ?? '') } : null;
}

type Json = Record<string, unknown>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Parses a request body of the given wire into the neutral view. */
export function parseRequest(wire: Wire, body: Json, pathModel: string | null): ParsedRequest {
  const messages = wire === 'openai' ? openaiMessages(body) : wire === 'anthropic' ? anthropicMessages(body) : geminiMessages(body);
  const config = (body.generationConfig ?? {}) as Json;
  return {
    wire,
    model: wire === 'gemini' ? pathModel : typeof body.model === 'string' ? body.model : null,
    messages,
    text: messages.map((message) => message.text).join('\n'),
    jsonMode:
      wire === 'openai'
        ? (body.response_format as Json | undefined)?.type === 'json_object'
        : wire === 'gemini' && config.responseMimeType === 'application/json',
    temperature: (wire === 'gemini' ? config.temperature : body.temperature) as number | undefined,
    maxTokens: (wire === 'gemini' ? config.maxOutputTokens : (body.max_completion_tokens ?? body.max_tokens)) as number | undefined,
  };
}

function image(mimeType: string, base64: string): ReceivedImage {
  const bytes = Buffer.from(base64, 'base64');
  return { mimeType, byteLength: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function openaiMessages(body: Json): ReceivedMessage[] {
  return asArray(body.messages).map((message) => {
    const role = message.role === 'developer' ? 'system' : (message.role as ReceivedMessage['role']);
    if (typeof message.content === 'string') return { role, text: message.content, images: [] };
    const parts = asArray(message.content);
    const images = parts.flatMap((part) => {
      const url = (part.image_url as Json | undefined)?.url;
      const match = typeof url === 'string' ? /^data:([^;]+);base64,(.*)$/s.exec(url) : null;
      return match ? [image(match[1] ?? '', match[2] ?? '')] : [];
    });
    return { role, text: parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join(''), images };
  });
}

function anthropicMessages(body: Json): ReceivedMessage[] {
  const system = typeof body.system === 'string' ? body.system : asArray(body.system).map((part) => String(part.text ?? '')).join('\n');
  const result: ReceivedMessage[] = system ? [{ role: 'system', text: system, images: [] }] : [];
  for (const message of asArray(body.messages)) {
    const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : asArray(message.content);
    const images = parts.flatMap((part) => {
      const source = part.source as Json | undefined;
      return part.type === 'image' && source?.type === 'base64' ? [image(String(source.media_type), String(source.data))] : [];
    });
    result.push({ role: message.role as ReceivedMessage['role'], text: parts.map((part) => (part.type === 'text' ? String(part.text) : '')).join(''), images });
  }
  return result;
}

function geminiMessages(body: Json): ReceivedMessage[] {
  const toMessage = (role: ReceivedMessage['role'], content: Json): ReceivedMessage => {
    const parts = asArray(content.parts);
    const images = parts.flatMap((part) => {
      const inline = part.inlineData as Json | undefined;
      return inline ? [image(String(inline.mimeType), String(inline.data))] : [];
    });
    return { role, text: parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join(''), images };
  };
  const system = body.systemInstruction ? [toMessage('system', body.systemInstruction as Json)] : [];
  return [...system, ...asArray(body.contents).map((content) => toMessage(content.role === 'model' ? 'assistant' : 'user', content))];
}

/** A successful reply body in the wire's format. */
export function successBody(wire: Wire, reply: { text: string; model: string; finishReason: 'stop' | 'length'; inputTokens: number; outputTokens: number; index: number }): Json {
  const { text, model, finishReason, inputTokens, outputTokens, index } = reply;
  if (wire === 'openai') {
    return {
      id: `chatcmpl-fake-${index}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
      usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    };
  }
  if (wire === 'anthropic') {
    return {
      id: `msg_fake_${index}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: finishReason === 'stop' ? 'end_turn' : 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    };
  }
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: finishReason === 'stop' ? 'STOP' : 'MAX_TOKENS', index: 0 }],
    usageMetadata: { promptTokenCount: inputTokens, candidatesTokenCount: outputTokens, totalTokenCount: inputTokens + outputTokens },
    modelVersion: model,
  };
}

const GEMINI_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };
const ANTHROPIC_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error', 500: 'api_error', 503: 'overloaded_error' };

/** An error body in the wire's format. */
export function errorBody(wire: Wire, status: number, message: string): Json {
  if (wire === 'openai') return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', param: null, code: null } };
  if (wire === 'anthropic') return { type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? 'api_error', message } };
  return { error: { code: status, message, status: GEMINI_STATUS[status] ?? 'UNKNOWN' } };
}

/** The name of the wire's JSON reply option, as a server rejecting it would quote it. */
export function jsonOptionName(wire: Wire): string {
  return wire === 'gemini' ? 'generationConfig.responseMimeType' : 'response_format';
}
