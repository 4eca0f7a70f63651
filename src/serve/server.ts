/**
 * `apb serve`: an OpenAI-compatible chat-completions endpoint on 127.0.0.1. In plan-first and refine modes it puts
 * the conversation's plan (drafted, or drafted then refined, once per conversation) into the system prompt of every
 * request of that conversation; in direct mode it only forwards. Every request goes on, tools included, to the
 * tested model through the provider stack, whatever its vendor.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenError, ProviderError } from '../errors.js';
import { planBlock, withPlan, type PlanningContext, type PlanRecord } from '../execution/plans.js';
import {
  partsOf,
  type ChatMessage,
  type Provider,
  type ProviderResult,
} from '../providers/provider.js';
import { redact } from '../redact.js';
import { ConversationPlans, openingOf } from './conversations.js';
import { BadRequestError, readChatRequest, type ServeRequest } from './openai-request.js';
import { completionBody, completionChunks, errorBody } from './openai-response.js';
import { parseUntrustedJson } from '../json-depth.js';
import { BudgetExceededError, type BudgetSummary } from '../pipeline/budget.js';
import type { UsageTotals } from '../pipeline/manifest.js';

/** The three execution modes of paper §5.1. */
export type ServeMode = 'direct' | 'plan-first' | 'refine';

/** What a server is made of: the mode, the forwarding target and the planner (absent in direct mode). */
export interface ServeOptions {
  mode: ServeMode;
  /** The tested model, for forwarded requests (no response cache: a benchmark's trials must stay independent). */
  forward: Provider;
  /** Makes a conversation's plan (plan-first: the draft; refine: the draft refined). Required unless direct. */
  makePlan?: (context: PlanningContext, signal: AbortSignal) => Promise<PlanRecord>;
  /** Told about every new conversation's plan once it is made (e.g. to log it). */
  onPlan?: (entry: { conversation: string; context: PlanningContext; plan: PlanRecord }) => void;
  /** 0 picks a free port. */
  port: number;
  /** Largest request body accepted (default 16 MiB). */
  maxBodyBytes?: number;
  /** What the calls cost so far, by role, and the `--max-cost` budget, for `/apb/stats`. */
  accounting?: () => { usage: Record<string, UsageTotals>; budget: BudgetSummary | null };
}

/** Counts of a running server. */
export interface ServeStats {
  mode: ServeMode;
  requests: number;
  conversations: number;
  plans: number;
  failed_requests: number;
  /** Requests refused because `--max-cost` was reached. */
  refused_budget: number;
  usage?: Record<string, UsageTotals>;
  budget?: BudgetSummary | null;
}

/** A running server. */
export interface RunningServe {
  /** `http://127.0.0.1:PORT/v1`, the base URL a client is given. */
  readonly baseUrl: string;
  stats(): ServeStats;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

/** Starts the endpoint; resolves once it listens. */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  if (options.mode !== 'direct' && !options.makePlan)
    throw new Error(`apb serve --mode ${options.mode} needs a planner`);
  const shutdown = new AbortController();
  const plans = new ConversationPlans(async (context) => {
    const plan = await options.makePlan!(context, shutdown.signal);
    return plan;
  });
  const counts = { requests: 0, failed_requests: 0, refused_budget: 0 };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      counts.failed_requests += 1;
      if (!response.headersSent)
        sendJson(
          response,
          500,
          errorBody(
            `apb serve: ${redact(String((error as Error)?.message ?? error))}`,
            'server_error',
          ),
        );
      else response.end();
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const route = (request.url ?? '').split('?')[0] ?? '';
    if (request.method === 'GET' && /^(\/v1)?\/models$/.test(route)) {
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: options.forward.id, object: 'model', created: 0, owned_by: 'apb' }],
      });
    }
    if (request.method === 'GET' && route === '/apb/stats') return sendJson(response, 200, stats());
    if (request.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(route)) {
      return sendJson(
        response,
        404,
        errorBody(
          `apb serve has no route ${request.method} ${route} (POST /v1/chat/completions)`,
          'invalid_request_error',
        ),
      );
    }
    counts.requests += 1;
    const body = await readJsonBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
    if ('error' in body)
      return sendJson(response, body.status, errorBody(body.error, 'invalid_request_error'));
    let parsed: ServeRequest;
    try {
      parsed = readChatRequest(body.value);
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      return sendJson(response, 400, errorBody(error.message, 'invalid_request_error'));
    }
    let plannedRequest: Awaited<ReturnType<typeof planned>>;
    try {
      plannedRequest = await planned(parsed);
    } catch (error) {
      if (!(error instanceof BudgetExceededError)) throw error;
      return refuseOverBudget(response, error);
    }
    const { messages, conversation, planState } = plannedRequest;
    const client = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) client.abort();
    });
    let result: ProviderResult;
    try {
      result = await options.forward.generate(
        {
          messages,
          promptVersion: `serve-${options.mode}`,
          json: false,
          sampling: parsed.sampling,
          repeat: 0,
          role: 'agent',
          ...(parsed.tools.length > 0
            ? { tools: parsed.tools, toolChoice: parsed.toolChoice }
            : {}),
        },
        AbortSignal.any([client.signal, shutdown.signal]),
      );
    } catch (error) {
      if (error instanceof BudgetExceededError) return refuseOverBudget(response, error);
      if (!(error instanceof ProviderError)) throw error;
      counts.failed_requests += 1;
      return sendJson(
        response,
        statusOf(error),
        errorBody(
          redact(error.message),
          error.kind === 'rate-limit' ? 'rate_limit_exceeded' : 'upstream_error',
          error.kind,
        ),
      );
    }
    const identity = {
      id: `chatcmpl-apb-${counts.requests}`,
      created: Math.floor(Date.now() / 1000),
      model: parsed.model ?? options.forward.id,
    };
    const headers = {
      'x-apb-mode': options.mode,
      'x-apb-plan': planState,
      ...(conversation ? { 'x-apb-conversation': conversation } : {}),
    };
    if (!parsed.stream) return sendJson(response, 200, completionBody(identity, result), headers);
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    for (const chunk of completionChunks(identity, result, parsed.includeUsage))
      response.write(chunk);
    response.end();
  }

  /** The request's messages with its conversation's plan put in, and what happened to the plan. */
  async function planned(request: ServeRequest): Promise<{
    messages: ChatMessage[];
    conversation: string | null;
    planState: 'none' | 'injected' | 'unavailable';
  }> {
    const opening = openingOf(request.messages, request.tools);
    if (options.mode === 'direct' || !opening)
      return { messages: request.messages, conversation: opening?.key ?? null, planState: 'none' };
    const isNew = !plans.has(opening.key);
    const plan = await plans.planFor(opening);
    if (isNew) options.onPlan?.({ conversation: opening.key, context: opening.context, plan });
    const block = planBlock(plan);
    if (!block)
      return { messages: request.messages, conversation: opening.key, planState: 'unavailable' };
    return {
      messages: injectPlan(request.messages, block),
      conversation: opening.key,
      planState: 'injected',
    };
  }

  /** `--max-cost` reached: OpenAI's answer to an exhausted quota (429 `insufficient_quota`), nothing forwarded. */
  function refuseOverBudget(response: ServerResponse, error: BudgetExceededError): void {
    counts.refused_budget += 1;
    sendJson(
      response,
      429,
      errorBody(`apb serve: ${error.message}`, 'insufficient_quota', 'insufficient_quota'),
    );
  }

  function stats(): ServeStats {
    return {
      mode: options.mode,
      requests: counts.requests,
      conversations: plans.size,
      plans: plans.made,
      failed_requests: counts.failed_requests,
      refused_budget: counts.refused_budget,
      ...(options.accounting?.() ?? {}),
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError('127.0.0.1', options.port, error)));
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stats,
    close: () => closeServer(server, sockets, shutdown),
  };
}

/** The messages with the plan appended to the first system message (or put in a system message of its own). */
export function injectPlan(messages: readonly ChatMessage[], block: string): ChatMessage[] {
  const first = messages[0];
  if (first?.role === 'system') {
    const text = partsOf(first)
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    return [
      { role: 'system', parts: [{ type: 'text', text: withPlan(text, block) }] },
      ...messages.slice(1),
    ];
  }
  return [{ role: 'system', parts: [{ type: 'text', text: withPlan('', block) }] }, ...messages];
}

function statusOf(error: ProviderError): number {
  if (error.kind === 'rate-limit') return 429;
  if (error.kind === 'timeout') return 504;
  if (error.kind === 'client') return 400;
  return 502;
}

async function readJsonBody(
  request: IncomingMessage,
  limit: number,
): Promise<{ value: unknown } | { error: string; status: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return { error: `request body is larger than ${limit} bytes`, status: 413 };
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: parseUntrustedJson(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { error: 'request body is not JSON', status: 400 };
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

async function closeServer(
  server: Server,
  sockets: Set<import('node:net').Socket>,
  shutdown: AbortController,
): Promise<void> {
  shutdown.abort();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
