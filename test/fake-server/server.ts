/**
 * A loopback HTTP server (127.0.0.1, random port) that speaks the OpenAI chat-completions, Anthropic messages and
 * Gemini generateContent wire formats, with latency, scripted replies and injected faults. Not streaming: the
 * adapters do not stream.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { faultReply, seededRandom, type FakeReply, type RandomFaults } from './replies.js';
import {
  errorBody,
  jsonOptionName,
  parseRequest,
  successBody,
  wireOf,
  type ParsedRequest,
  type Wire,
} from './wire.js';

/** One request as the server saw it. */
export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  /** Query string without the `?`. */
  query: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown> | null;
  /** Null for a path the server does not know. */
  parsed: ParsedRequest | null;
}

/** Chooses the reply for a request; may inspect it to script answers per case. */
export type Responder = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** Server configuration; every field can be changed later with `configure`. */
export interface FakeServerOptions {
  /** Picks replies not taken from the queue (`enqueue`); default: a success with text `ok`. */
  respond?: Responder;
  /** Added before every reply: a fixed delay or a uniform [min, max] range in ms. */
  latencyMs?: number | [number, number];
  /** Random injected faults, applied before the queue and the responder. */
  faults?: RandomFaults;
  /** Answer 400 naming the JSON option whenever a request asks for a JSON reply. */
  rejectJsonMode?: boolean;
  /** When set, a request not carrying this key (Bearer, x-api-key, x-goog-api-key or ?key=) gets a 401 that echoes what it sent. */
  requireKey?: string;
  /**
   * Keep every request in `requests` (default true, for tests that inspect them). The benchmark
   * turns it off: thousands of retained bodies made the server's own garbage collection delay replies.
   * Counts are kept either way.
   */
  retainRequests?: boolean;
  /** Listen on this port (default: a free one), e.g. to come up where a client already points. */
  port?: number;
}

/** A running fake server. */
export interface FakeServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The base URL an SDK wants for a wire: `…/v1` for OpenAI and Anthropic, `…/v1beta` for Gemini. */
  baseUrl(wire: Wire): string;
  readonly requests: RecordedRequest[];
  /** Requests received on `path` (all requests without an argument). */
  count(path?: string): number;
  /** Request counts keyed by path. */
  countsByPath(): Record<string, number>;
  /** Requests being answered right now, and the most at once since the last `reset`. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Queues replies taken in order before the responder is asked. */
  enqueue(...replies: FakeReply[]): void;
  configure(options: Partial<FakeServerOptions>): void;
  /** Forgets recorded requests, counts, the queue and configuration changes made after start. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a fake server on 127.0.0.1 at a free port. */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const server = new LoopbackModelServer(options);
  await server.listen();
  return server;
}

class LoopbackModelServer implements FakeServer {
  readonly requests: RecordedRequest[] = [];
  private readonly counts = new Map<string, number>();
  private received = 0;
  private options: FakeServerOptions;
  private random: () => number;
  private readonly queue: FakeReply[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly http: Server;
  private active = 0;
  private peak = 0;
  url = '';

  constructor(private readonly initial: FakeServerOptions) {
    this.options = { ...initial };
    this.random = seededRandom(initial.faults?.seed ?? 1);
    this.http = createServer((request, response) => this.accept(request, response));
    this.http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.http.listen(this.initial.port ?? 0, '127.0.0.1', resolve),
    );
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  baseUrl(wire: Wire): string {
    return `${this.url}${wire === 'gemini' ? '/v1beta' : '/v1'}`;
  }

  count(path?: string): number {
    return path === undefined ? this.received : (this.counts.get(path) ?? 0);
  }

  countsByPath(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  get inFlight(): number {
    return this.active;
  }

  get maxInFlight(): number {
    return this.peak;
  }

  enqueue(...replies: FakeReply[]): void {
    this.queue.push(...replies);
  }

  configure(changes: Partial<FakeServerOptions>): void {
    this.options = { ...this.options, ...changes };
    if (changes.faults) this.random = seededRandom(changes.faults.seed ?? 1);
  }

  reset(): void {
    this.requests.length = 0;
    this.counts.clear();
    this.received = 0;
    this.queue.length = 0;
    this.peak = this.active;
    this.options = { ...this.initial };
    this.random = seededRandom(this.initial.faults?.seed ?? 1);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private accept(request: IncomingMessage, response: ServerResponse): void {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    response.once('close', () => this.active--);
    this.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`fake server bug: ${String(error)}`);
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const recorded = await this.record(request);
    const route = request.method === 'POST' ? wireOf(recorded.path) : null;
    if (!route || !recorded.parsed) {
      return send(
        response,
        404,
        { 'content-type': 'application/json' },
        JSON.stringify({ error: { message: `no route ${request.method} ${recorded.path}` } }),
      );
    }
    const reply = await this.chooseReply(recorded, route.wire);
    await delay(reply.delayMs ?? this.latency(), request);
    if (response.destroyed || request.socket.destroyed) return;
    this.render(response, route.wire, recorded, reply);
  }

  private async record(request: IncomingMessage): Promise<RecordedRequest> {
    const rawBody = await readBody(request);
    const [path = '', query = ''] = (request.url ?? '').split('?');
    const route = request.method === 'POST' ? wireOf(path) : null;
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      body = null;
    }
    const recorded: RecordedRequest = {
      index: this.received,
      method: request.method ?? '',
      path,
      query,
      headers: request.headers,
      rawBody,
      body,
      parsed: route && body ? parseRequest(route.wire, body, route.model) : null,
    };
    this.received += 1;
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    if (this.options.retainRequests !== false) this.requests.push(recorded);
    return recorded;
  }

  private async chooseReply(request: RecordedRequest, wire: Wire): Promise<FakeReply> {
    const { requireKey, rejectJsonMode, faults, respond } = this.options;
    if (requireKey !== undefined) {
      const sent = keyOf(request);
      if (sent !== requireKey)
        return { status: 401, message: `Incorrect API key provided: ${sent ?? '(none)'}` };
    }
    if (rejectJsonMode && request.parsed?.jsonMode) {
      return {
        status: 400,
        message: `Invalid parameter: '${jsonOptionName(wire)}' of type 'json_object' is not supported with this model.`,
      };
    }
    if (faults && faults.kinds.length > 0 && this.random() < faults.rate) {
      return faultReply(faults.kinds[Math.floor(this.random() * faults.kinds.length)] ?? 500);
    }
    return this.queue.shift() ?? (respond ? respond(request) : { text: 'ok' });
  }

  private render(
    response: ServerResponse,
    wire: Wire,
    request: RecordedRequest,
    reply: FakeReply,
  ): void {
    if (reply.fault === 'hang') return;
    if (reply.fault === 'reset') return void response.socket?.resetAndDestroy();
    if (reply.fault === 'garbage')
      return send(
        response,
        200,
        { 'content-type': 'application/json' },
        '<html><body>502 Bad Gateway</body></html>',
      );
    const status = reply.status ?? 200;
    const rendered =
      reply.body ??
      (status >= 200 && status < 300
        ? this.success(wire, request, reply)
        : errorBody(wire, status, reply.message ?? `fake error ${status}`));
    const payload = typeof rendered === 'string' ? rendered : JSON.stringify(rendered);
    const headers = { 'content-type': 'application/json', ...reply.headers };
    if (reply.fault === 'truncate') {
      // Promise the whole body, send half of it, then cut the connection.
      response.writeHead(status, {
        ...headers,
        'content-length': String(Buffer.byteLength(payload)),
      });
      response.write(payload.slice(0, Math.floor(payload.length / 2)), () =>
        response.socket?.destroy(),
      );
      return;
    }
    if (reply.gzip)
      return send(response, status, { ...headers, 'content-encoding': 'gzip' }, gzipSync(payload));
    send(response, status, headers, payload);
  }

  private success(wire: Wire, request: RecordedRequest, reply: FakeReply): Record<string, unknown> {
    const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
      id: call.id ?? `call_${request.index}_${n}`,
      name: call.name,
      arguments: call.arguments,
    }));
    const text = reply.text ?? (toolCalls.length > 0 ? '' : 'ok');
    return successBody(wire, {
      text,
      toolCalls,
      model: request.parsed?.model ?? 'fake-model',
      finishReason: reply.finishReason ?? 'stop',
      inputTokens:
        reply.usage?.inputTokens ?? Math.max(1, Math.ceil((request.parsed?.text.length ?? 0) / 4)),
      outputTokens:
        reply.usage?.outputTokens ??
        Math.max(
          1,
          Math.ceil(
            (text.length + JSON.stringify(toolCalls).length * Number(toolCalls.length > 0)) / 4,
          ),
        ),
      index: request.index,
    });
  }

  private latency(): number {
    const value = this.options.latencyMs ?? 0;
    return Array.isArray(value) ? value[0] + this.random() * (value[1] - value[0]) : value;
  }
}

function keyOf(request: RecordedRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer '))
    return authorization.slice('Bearer '.length);
  const header = request.headers['x-api-key'] ?? request.headers['x-goog-api-key'];
  if (typeof header === 'string') return header;
  return new URLSearchParams(request.query).get('key') ?? undefined;
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): void {
  response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function delay(ms: number, request: IncomingMessage): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve();
    };
    // Keep-alive sockets carry many requests: drop the listener once the delay is over.
    const timer = setTimeout(() => {
      request.socket.off('close', onClose);
      resolve();
    }, ms);
    request.socket.once('close', onClose);
  });
}
