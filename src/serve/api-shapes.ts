/**
 * The three client APIs apb serve speaks, each as its route, how a body is read, how a reply, a stream and an
 * error are written, and how it names the options (so a refusal names the field the client sent).
 */
import type { ProviderResult } from '../providers/provider.js';
import type { NameMap } from './client-options.js';
import { anthropicError, openaiError, type ServeFailure } from './failures.js';
import { readMessagesRequest, MESSAGES_NAMES } from './messages-request.js';
import { messagesBody, messagesEvents } from './messages-reply.js';
import { readChatRequest, type ServeRequest } from './openai-request.js';
import { completionBody, completionChunks, type ReplyIdentity } from './openai-response.js';
import { readResponsesRequest, RESPONSES_NAMES } from './responses-request.js';
import { responsesBody, responsesEvents } from './responses-reply.js';

/** One client API. */
export interface ApiShape {
  route: RegExp;
  idPrefix: string;
  names: NameMap;
  /** Reads a request body; tool-call arguments nested past `jsonDepth` (the JSON cap) are not read. */
  read(body: unknown, jsonDepth?: number): ServeRequest;
  reply(identity: ReplyIdentity, result: ProviderResult): Record<string, unknown>;
  stream(identity: ReplyIdentity, result: ProviderResult, request: ServeRequest): string[];
  error(failure: ServeFailure): Record<string, unknown>;
}

/** Chat completions, Responses and Anthropic Messages. */
export const API_SHAPES = {
  chat: {
    route: /^(\/v1)?\/chat\/completions$/,
    idPrefix: 'chatcmpl-apb-',
    names: {},
    read: readChatRequest,
    reply: completionBody,
    stream: (identity, result, request) => completionChunks(identity, result, request.includeUsage),
    error: openaiError,
  },
  responses: {
    route: /^(\/v1)?\/responses$/,
    idPrefix: 'resp_apb',
    names: RESPONSES_NAMES,
    read: readResponsesRequest,
    reply: responsesBody,
    stream: (identity, result) => responsesEvents(identity, result),
    error: openaiError,
  },
  messages: {
    route: /^(\/v1)?\/messages$/,
    idPrefix: 'msg_apb',
    names: MESSAGES_NAMES,
    read: readMessagesRequest,
    reply: messagesBody,
    stream: (identity, result) => messagesEvents(identity, result),
    error: anthropicError,
  },
} satisfies Record<string, ApiShape>;
