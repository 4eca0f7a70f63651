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

/** A tool call as a request carried it (an earlier model turn), arguments parsed. */
export interface ReceivedToolCall {
  id: string | null;
  name: string;
  arguments: unknown;
}

/** A tool result as a request carried it. */
export interface ReceivedToolResult {
  id: string | null;
  content: string;
  isError: boolean;
}

/** A tool definition as a request carried it. */
export interface ReceivedTool {
  name: string;
  description: string;
  parameters: unknown;
}

/** One message of a request, vendor shape removed; `tool` messages carry tool results. */
export interface ReceivedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  images: ReceivedImage[];
  toolCalls: ReceivedToolCall[];
  toolResults: ReceivedToolResult[];
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
  /** Tools offered to the model (empty when none). */
  tools: ReceivedTool[];
  /** The tool choice as the wire wrote it (`auto`, `required`, `any`, …), or null. */
  toolChoice: string | null;
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
  const messages =
    wire === 'openai'
      ? openaiMessages(body)
      : wire === 'anthropic'
        ? anthropicMessages(body)
        : geminiMessages(body);
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
    maxTokens: (wire === 'gemini'
      ? config.maxOutputTokens
      : (body.max_completion_tokens ?? body.max_tokens)) as number | undefined,
    tools: toolsOf(wire, body),
    toolChoice: toolChoiceOf(wire, body),
  };
}

function toolsOf(wire: Wire, body: Json): ReceivedTool[] {
  if (wire === 'openai') {
    return asArray(body.tools).map((tool) => {
      const fn = (tool.function ?? {}) as Json;
      return {
        name: String(fn.name),
        description: String(fn.description ?? ''),
        parameters: fn.parameters,
      };
    });
  }
  if (wire === 'anthropic')
    return asArray(body.tools).map((tool) => ({
      name: String(tool.name),
      description: String(tool.description ?? ''),
      parameters: tool.input_schema,
    }));
  return asArray(body.tools)
    .flatMap((tool) => asArray(tool.functionDeclarations))
    .map((fn) => ({
      name: String(fn.name),
      description: String(fn.description ?? ''),
      parameters: fn.parameters,
    }));
}

function toolChoiceOf(wire: Wire, body: Json): string | null {
  const choice =
    wire === 'gemini'
      ? ((body.toolConfig as Json | undefined)?.functionCallingConfig as Json | undefined)?.mode
      : body.tool_choice;
  if (choice === undefined || choice === null) return null;
  return typeof choice === 'string'
    ? choice
    : String((choice as Json).type ?? JSON.stringify(choice));
}

function parseJsonText(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A neutral message with no tool parts. */
function plain(
  role: ReceivedMessage['role'],
  text: string,
  images: ReceivedImage[] = [],
): ReceivedMessage {
  return { role, text, images, toolCalls: [], toolResults: [] };
}

function image(mimeType: string, base64: string): ReceivedImage {
  const bytes = Buffer.from(base64, 'base64');
  return {
    mimeType,
    byteLength: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

function openaiMessages(body: Json): ReceivedMessage[] {
  return asArray(body.messages).map((message) => {
    const role =
      message.role === 'developer' ? 'system' : (message.role as ReceivedMessage['role']);
    const toolCalls = asArray(message.tool_calls).map((call) => {
      const fn = (call.function ?? {}) as Json;
      return {
        id: typeof call.id === 'string' ? call.id : null,
        name: String(fn.name),
        arguments: parseJsonText(fn.arguments),
      };
    });
    const content = typeof message.content === 'string' ? message.content : null;
    if (role === 'tool') {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : null;
      const text =
        content ??
        asArray(message.content)
          .map((part) => String(part.text ?? ''))
          .join('');
      return { ...plain('tool', text), toolResults: [{ id, content: text, isError: false }] };
    }
    if (content !== null || message.content === null || message.content === undefined)
      return { ...plain(role, content ?? ''), toolCalls };
    const parts = asArray(message.content);
    const images = parts.flatMap((part) => {
      const url = (part.image_url as Json | undefined)?.url;
      const match = typeof url === 'string' ? /^data:([^;]+);base64,(.*)$/s.exec(url) : null;
      return match ? [image(match[1] ?? '', match[2] ?? '')] : [];
    });
    return {
      ...plain(
        role,
        parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join(''),
        images,
      ),
      toolCalls,
    };
  });
}

function anthropicMessages(body: Json): ReceivedMessage[] {
  const system =
    typeof body.system === 'string'
      ? body.system
      : asArray(body.system)
          .map((part) => String(part.text ?? ''))
          .join('\n');
  const result: ReceivedMessage[] = system ? [plain('system', system)] : [];
  for (const message of asArray(body.messages)) {
    const parts =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : asArray(message.content);
    const images = parts.flatMap((part) => {
      const source = part.source as Json | undefined;
      return part.type === 'image' && source?.type === 'base64'
        ? [image(String(source.media_type), String(source.data))]
        : [];
    });
    const toolCalls = parts
      .filter((part) => part.type === 'tool_use')
      .map((part) => ({ id: String(part.id), name: String(part.name), arguments: part.input }));
    const toolResults = parts
      .filter((part) => part.type === 'tool_result')
      .map((part) => ({
        id: String(part.tool_use_id),
        content:
          typeof part.content === 'string'
            ? part.content
            : asArray(part.content)
                .map((inner) => String(inner.text ?? ''))
                .join(''),
        isError: part.is_error === true,
      }));
    const text = parts.map((part) => (part.type === 'text' ? String(part.text) : '')).join('');
    const role =
      toolResults.length > 0 && text === '' ? 'tool' : (message.role as ReceivedMessage['role']);
    result.push({
      role,
      text: role === 'tool' ? toolResults.map((item) => item.content).join('\n') : text,
      images,
      toolCalls,
      toolResults,
    });
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
    const toolCalls = parts.flatMap((part) => {
      const call = part.functionCall as Json | undefined;
      return call ? [{ id: null, name: String(call.name), arguments: call.args }] : [];
    });
    const toolResults = parts.flatMap((part) => {
      const response = part.functionResponse as Json | undefined;
      if (!response) return [];
      const payload = (response.response ?? {}) as Json;
      const value = payload.content ?? payload;
      return [
        {
          id: null,
          content: typeof value === 'string' ? value : JSON.stringify(value),
          isError: false,
        },
      ];
    });
    const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
    const kind = toolResults.length > 0 && text === '' ? 'tool' : role;
    return {
      role: kind,
      text: kind === 'tool' ? toolResults.map((item) => item.content).join('\n') : text,
      images,
      toolCalls,
      toolResults,
    };
  };
  const system = body.systemInstruction
    ? [toMessage('system', body.systemInstruction as Json)]
    : [];
  return [
    ...system,
    ...asArray(body.contents).map((content) =>
      toMessage(content.role === 'model' ? 'assistant' : 'user', content),
    ),
  ];
}

/** A tool call a scripted reply makes; `arguments` as a string is sent verbatim (to test unreadable arguments). */
export interface ReplyToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** What a successful reply says, before it is put in a wire's format. */
export interface SuccessReply {
  text: string;
  toolCalls: ReplyToolCall[];
  model: string;
  finishReason: 'stop' | 'length';
  inputTokens: number;
  outputTokens: number;
  index: number;
}

const argumentsText = (value: unknown) =>
  typeof value === 'string' ? value : JSON.stringify(value);
const argumentsObject = (value: unknown) =>
  typeof value === 'string' ? parseJsonText(value) : value;

/** A successful reply body in the wire's format (tool calls as each wire writes them). */
export function successBody(wire: Wire, reply: SuccessReply): Json {
  const { text, toolCalls, model, finishReason, inputTokens, outputTokens, index } = reply;
  const calling = toolCalls.length > 0;
  if (wire === 'openai') {
    const message: Json = { role: 'assistant', content: calling && text === '' ? null : text };
    if (calling)
      message.tool_calls = toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: argumentsText(call.arguments) },
      }));
    return {
      id: `chatcmpl-fake-${index}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, message, finish_reason: calling ? 'tool_calls' : finishReason }],
      usage: {
        prompt_tokens: inputTokens,
        completion_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
      },
    };
  }
  if (wire === 'anthropic') {
    const content: Json[] = text !== '' || !calling ? [{ type: 'text', text }] : [];
    for (const call of toolCalls)
      content.push({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: argumentsObject(call.arguments),
      });
    return {
      id: `msg_fake_${index}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: calling ? 'tool_use' : finishReason === 'stop' ? 'end_turn' : 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    };
  }
  const parts: Json[] = text !== '' || !calling ? [{ text }] : [];
  for (const call of toolCalls)
    parts.push({ functionCall: { name: call.name, args: argumentsObject(call.arguments) } });
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: finishReason === 'stop' ? 'STOP' : 'MAX_TOKENS',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: inputTokens + outputTokens,
    },
    modelVersion: model,
  };
}

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};
const ANTHROPIC_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
};

/** An error body in the wire's format. */
export function errorBody(wire: Wire, status: number, message: string): Json {
  if (wire === 'openai')
    return {
      error: {
        message,
        type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error',
        param: null,
        code: null,
      },
    };
  if (wire === 'anthropic')
    return { type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? 'api_error', message } };
  return { error: { code: status, message, status: GEMINI_STATUS[status] ?? 'UNKNOWN' } };
}

/** The name of the wire's JSON reply option, as a server rejecting it would quote it. */
export function jsonOptionName(wire: Wire): string {
  return wire === 'gemini' ? 'generationConfig.responseMimeType' : 'response_format';
}
