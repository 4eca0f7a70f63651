/**
 * `apb serve`: an OpenAI- and Anthropic-compatible endpoint on a loopback address. It speaks chat completions
 * (`/v1/chat/completions`), the Responses API (`/v1/responses`) and Anthropic messages (`/v1/messages`), each
 * streaming or not; in plan-first and refine modes it puts the conversation's plan into the system prompt of
 * every agent request of that conversation (`forward.ts`); in direct mode it only forwards. It answers only
 * loopback Host names, same-origin pages and, with an API key, clients that send it (`guard.ts`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { listenError } from '../errors.js';
import type { PlanningContext, PlanRecord } from '../execution/plans.js';
import { parseUntrustedJson } from '../json-depth.js';
import type { BudgetSummary } from '../pipeline/budget.js';
import type { UsageTotals } from '../pipeline/manifest.js';
import type { Provider } from '../providers/provider.js';
import { redact } from '../redact.js';
import { API_SHAPES, type ApiShape } from './api-shapes.js';
import { BadRequestError } from './client-options.js';
import { openaiError, type ServeFailure } from './failures.js';
import { createForwarder, type ServeMode } from './forward.js';
import { refusal } from './guard.js';
import type { ServeRequest } from './openai-request.js';

export { injectPlan, type ServeMode } from './forward.js';

/** What a server is made of: the mode, the forwarding target and the planner (absent in direct mode). */
export interface ServeOptions {
  mode: ServeMode;
  /** The tested model, for forwarded requests (no response cache: a benchmark's trials must stay independent). */
  forward: Provider;
  /** Makes a conversation's plan (plan-first: the draft; refine: the draft refined). Required unless direct. */
  makePlan?: (context: PlanningContext, signal: AbortSignal) => Promise<PlanRecord>;
  /** Told about every new conversation's plan once it is made (e.g. to log it). */
  onPlan?: (entry: { conversation: string; context: PlanningContext; plan: PlanRecord }) => void;
  /** Asked before a new conversation's plan is paid for; a failure returned refuses the request (a full disk). */
  beforePlan?: () => ServeFailure | null;
  /** Roles whose conversations are planned (`--plan-roles`, default `agent`); others are forwarded as they are. */
  planRoles?: readonly string[];
  /** 0 picks a free port. */
  port: number;
  /** Address to listen on (default 127.0.0.1); a name given here is also accepted as the Host. */
  host?: string;
  /** Key clients must send (`--api-key`). */
  apiKey?: string;
  /** Largest request body accepted (default 16 MiB). */
  maxBodyBytes?: number;
  /** The JSON cap request bodies are read under (`Limits.jsonDepth`); default `DEFAULT_LIMITS`'. */
  jsonDepth?: number;
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
  /** `http://HOST:PORT/v1`, the base URL a client is given. */
  readonly baseUrl: string;
  stats(): ServeStats;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
const LOOPBACK_HOST = '127.0.0.1';

/** The role a request speaks for: the `x-apb-role` header, else a `@ROLE` suffix of its model name, else agent. */
export function roleOf(
  request: IncomingMessage,
  model: string | null,
): { role: string; model: string | null } {
  const header = request.headers['x-apb-role'];
  const suffix = model ? /^(.*)@([a-z][a-z0-9_-]*)$/i.exec(model) : null;
  const bare = suffix ? suffix[1]! : model;
  if (typeof header === 'string' && header.trim() !== '')
    return { role: header.trim().toLowerCase(), model: bare };
  return { role: suffix ? suffix[2]!.toLowerCase() : 'agent', model: bare };
}

/** Starts the endpoint; resolves once it listens. */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  if (options.mode !== 'direct' && !options.makePlan)
    throw new Error(`apb serve --mode ${options.mode} needs a planner`);
  const shutdown = new AbortController();
  const forwarder = createForwarder(options, shutdown.signal);
  let requests = 0;
  let port = 0;
  const host = options.host ?? LOOPBACK_HOST;
  const served: Served = {
    options,
    forwarder,
    host,
    port: () => port,
    count: () => (requests += 1),
    stats: () => stats(),
  };
  const server = createServer((request, response) => {
    handle(served, request, response).catch((error: unknown) => {
      forwarder.counts.failed_requests += 1;
      if (!response.headersSent) {
        const message = `apb serve: ${redact(String((error as Error)?.message ?? error))}`;
        sendJson(response, 500, openaiError({ kind: 'server', message }));
      } else response.end();
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function stats(): ServeStats {
    return {
      mode: options.mode,
      requests,
      conversations: forwarder.plans.size,
      plans: forwarder.plans.made,
      failed_requests: forwarder.counts.failed_requests,
      refused_budget: forwarder.counts.refused_budget,
      ...(options.accounting?.() ?? {}),
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(host, options.port, error)));
    server.listen(options.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${shown}:${port}/v1`,
    stats,
    close: () => closeServer(server, sockets, shutdown),
  };
}

/** What a request is answered with: the options, the forwarder, where the server listens and its counters. */
interface Served {
  options: ServeOptions;
  forwarder: ReturnType<typeof createForwarder>;
  host: string;
  port: () => number;
  /** Counts a forwarded request and gives its number. */
  count: () => number;
  stats: () => ServeStats;
}

/** Answers one request: the guard first, then the model routes, then the three APIs. */
async function handle(
  served: Served,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { options, host } = served;
  const route = (request.url ?? '').split('?')[0] ?? '';
  const api = Object.values(API_SHAPES).find((shape) => shape.route.test(route));
  const refused = refusal(request, {
    port: served.port(),
    hosts: host === LOOPBACK_HOST ? [] : [host],
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  });
  if (refused) return fail(response, refused, api ?? API_SHAPES.chat);
  if (request.method === 'GET' && /^(\/v1)?\/models$/.test(route))
    return sendJson(response, 200, { object: 'list', data: [modelObject(options.forward.id)] });
  const model = /^(?:\/v1)?\/models\/(.+)$/.exec(route);
  if (request.method === 'GET' && model) return retrieveModel(options, response, model[1]!);
  if (request.method === 'GET' && route === '/apb/stats')
    return sendJson(response, 200, served.stats());
  if (request.method !== 'POST' || !api) {
    const message = `apb serve has no route ${request.method} ${route} (POST /v1/chat/completions, /v1/responses or /v1/messages)`;
    return fail(response, { status: 404, kind: 'not_found', message }, API_SHAPES.chat);
  }
  const number = served.count();
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const body = await readJsonBody(request, maxBytes, options.jsonDepth);
  if ('error' in body)
    return fail(
      response,
      { status: body.status, kind: 'invalid_request', message: body.error },
      api,
    );
  let parsed: ServeRequest;
  try {
    parsed = api.read(body.value, options.jsonDepth);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    return fail(response, { status: 400, kind: 'invalid_request', message: error.message }, api);
  }
  return answer(served, { request, response, api, parsed, number });
}

/** Forwards a read request and writes the reply, whole or streamed, in the client's API. */
async function answer(
  served: Served,
  call: {
    request: IncomingMessage;
    response: ServerResponse;
    api: ApiShape;
    parsed: ServeRequest;
    number: number;
  },
): Promise<void> {
  const { request, response, api, parsed } = call;
  const { role, model: asked } = roleOf(request, parsed.model);
  const client = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) client.abort();
  });
  const outcome = await served.forwarder.forward(parsed, role, client.signal, api.names);
  if (!outcome.ok) return fail(response, outcome.failure, api);
  const identity = {
    id: `${api.idPrefix}${call.number}`,
    created: Math.floor(Date.now() / 1000),
    model: asked ?? served.options.forward.id,
  };
  if (!parsed.stream)
    return sendJson(response, 200, api.reply(identity, outcome.result), outcome.headers);
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...outcome.headers,
  });
  for (const chunk of api.stream(identity, outcome.result, parsed)) response.write(chunk);
  response.end();
}

function retrieveModel(options: ServeOptions, response: ServerResponse, id: string): void {
  const name = decodeURIComponent(id);
  const known = [options.forward.id, options.forward.id.split(':').slice(1).join(':')];
  if (known.includes(name)) return sendJson(response, 200, modelObject(name));
  const message = `apb serve forwards to ${options.forward.id}; there is no model "${name.slice(0, 100)}"`;
  fail(response, { status: 404, kind: 'not_found', message }, API_SHAPES.chat);
}

const modelObject = (id: string) => ({ id, object: 'model', created: 0, owned_by: 'apb' });

function fail(response: ServerResponse, failure: ServeFailure, api: ApiShape): void {
  sendJson(response, failure.status, api.error(failure), failure.headers ?? {});
}

async function readJsonBody(
  request: IncomingMessage,
  limit: number,
  jsonDepth: number | undefined,
): Promise<{ value: unknown } | { error: string; status: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return { error: `request body is larger than ${limit} bytes`, status: 413 };
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: parseUntrustedJson(Buffer.concat(chunks).toString('utf8'), jsonDepth) };
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
  sockets: Set<Socket>,
  shutdown: AbortController,
): Promise<void> {
  shutdown.abort();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
