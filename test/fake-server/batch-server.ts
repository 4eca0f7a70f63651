/**
 * A loopback fake of the three vendors' batch protocols (a named fake, for tests and the benchmark):
 * OpenAI files + batches, Anthropic message batches, Gemini resumable file upload + batch jobs.
 * A batch ends after `pollsToEnd` status requests; its items are answered by `respond` in each
 * vendor's reply format (test/fake-server/wire.ts). It counts what it was asked, so a test can
 * prove that a re-run submitted no request twice.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRequest, successBody, type ParsedRequest, type Wire } from './wire.js';

type Json = Record<string, unknown>;

/** How one batch item is answered: a text reply, or a failure (retryable or not). */
export type BatchReply = { text: string } | { error: string; retryable: boolean };

/** Options of the fake; `configure` changes them later. */
export interface FakeBatchOptions {
  /** Status requests before a batch ends (default 2). */
  pollsToEnd?: number;
  /** Answers one item (default: the text `ok`). */
  respond?: (item: { wire: Wire; customId: string; parsed: ParsedRequest }) => BatchReply;
  /** Holds the reply to a batch creation this long after the batch exists (to kill a client in between). */
  createDelayMs?: number;
  /** The next N creations make the batch, then drop the connection without a reply (a lost reply). */
  dropCreates?: number;
  /** The vendor's clock against ours: batches are stamped this far off (negative: the vendor is behind). */
  clockOffsetMs?: number;
  /** Rewrites a batch as the fake reports it (status, list, creation): a hostile or failing vendor. */
  view?: (record: Json, batch: FakeBatch) => Json;
  /** Replaces a batch's results download: a text, or a stream of chunks (sent without a length). */
  resultsBody?: (batch: FakeBatch) => string | AsyncIterable<Buffer>;
}

/** One batch the fake holds. */
export interface FakeBatch {
  wire: Wire;
  id: string;
  items: { customId: string; body: Json; model: string }[];
  polls: number;
  ended: boolean;
  createdAt: number;
  meta: Json;
  results: string | null;
}

/** A running fake batch server. */
export interface FakeBatchServer {
  readonly url: string;
  /** The base URL apb takes for a wire (`…/v1`, `…/v1beta`). */
  baseUrl(wire: Wire): string;
  readonly batches: FakeBatch[];
  /** Batches created per wire. */
  created(wire: Wire): number;
  /** Custom ids submitted more than once, across the wire's batches from `batches[from]` on. */
  resubmitted(wire: Wire, from?: number): string[];
  configure(options: FakeBatchOptions): void;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const send = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': typeof body === 'string' ? 'application/octet-stream' : 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
};

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeBatchServer(
  options: FakeBatchOptions = {},
): Promise<FakeBatchServer> {
  const fake = new BatchFake(options);
  await fake.listen();
  return fake;
}

class BatchFake implements FakeBatchServer {
  readonly batches: FakeBatch[] = [];
  private readonly files = new Map<string, Buffer>();
  private readonly uploads = new Map<string, { chunks: Buffer[]; displayName: string }>();
  private readonly http: Server;
  private sequence = 0;
  url = '';

  constructor(private options: FakeBatchOptions) {
    this.http = createServer((request, response) => {
      this.route(request, response).catch((error: unknown) =>
        send(response, 500, { error: { message: `fake batch server bug: ${String(error)}` } }),
      );
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  baseUrl(wire: Wire): string {
    return `${this.url}${wire === 'gemini' ? '/v1beta' : '/v1'}`;
  }

  created(wire: Wire): number {
    return this.batches.filter((batch) => batch.wire === wire).length;
  }

  resubmitted(wire: Wire, from = 0): string[] {
    const seen = new Set<string>();
    const twice: string[] = [];
    for (const batch of this.batches.slice(from).filter((entry) => entry.wire === wire))
      for (const item of batch.items) {
        if (seen.has(item.customId)) twice.push(item.customId);
        seen.add(item.customId);
      }
    return twice;
  }

  configure(options: FakeBatchOptions): void {
    this.options = { ...this.options, ...options };
  }

  close(): Promise<void> {
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  private nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}${this.sequence.toString().padStart(6, '0')}`;
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const body = await readBody(request);
    const { pathname } = url;
    const method = request.method ?? 'GET';
    if (pathname.startsWith('/v1/messages/batches'))
      return this.anthropic(method, pathname, body, response);
    if (pathname.startsWith('/v1/')) return this.openai(request, method, pathname, body, response);
    if (pathname.startsWith('/upload/v1beta/files') || pathname.startsWith('/v1beta/'))
      return this.gemini(request, method, url, body, response);
    send(response, 404, { error: { message: `no route ${method} ${pathname}` } });
  }

  private newBatch(wire: Wire, id: string, items: FakeBatch['items'], meta: Json): FakeBatch {
    const batch: FakeBatch = {
      wire,
      id,
      items,
      polls: 0,
      ended: false,
      createdAt: Date.now() + (this.options.clockOffsetMs ?? 0),
      meta,
      results: null,
    };
    this.batches.push(batch);
    return batch;
  }

  /** Sends a creation's reply, after `createDelayMs` when set; drops it while `dropCreates` lasts. */
  private replyCreated(response: ServerResponse, body: Json): void {
    if ((this.options.dropCreates ?? 0) > 0) {
      this.options.dropCreates! -= 1;
      response.socket?.destroy();
      return;
    }
    const delay = this.options.createDelayMs ?? 0;
    if (delay > 0) setTimeout(() => !response.destroyed && send(response, 200, body), delay);
    else send(response, 200, body);
  }

  /** Sends a batch's results: `resultsBody` when set (a hostile download), else what it made. */
  private async sendResults(response: ServerResponse, batch: FakeBatch): Promise<void> {
    const body = this.options.resultsBody?.(batch);
    if (body === undefined) return send(response, 200, batch.results!);
    if (typeof body === 'string') return send(response, 200, body);
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    for await (const chunk of body) {
      if (response.destroyed) return;
      if (!response.write(chunk))
        await new Promise<void>((resolve) => {
          const done = () => {
            response.off('drain', done);
            response.off('close', done);
            resolve();
          };
          response.on('drain', done);
          response.on('close', done);
        });
    }
    response.end();
  }

  /** The batch as reported, through `view` when set. */
  private shown(record: Json, batch: FakeBatch): Json {
    return this.options.view ? this.options.view(record, batch) : record;
  }

  /** Counts a status request; at `pollsToEnd` the batch ends and its results are made. */
  private poll(batch: FakeBatch): void {
    batch.polls += 1;
    if (batch.ended || batch.polls < (this.options.pollsToEnd ?? 2)) return;
    batch.ended = true;
    batch.results =
      batch.items
        .map((item, index) => JSON.stringify(this.resultLine(batch.wire, item, index)))
        .join('\n') + '\n';
  }

  private resultLine(wire: Wire, item: FakeBatch['items'][number], index: number): Json {
    const parsed = parseRequest(wire, item.body, item.model);
    const reply = this.options.respond?.({ wire, customId: item.customId, parsed }) ?? {
      text: 'ok',
    };
    if ('error' in reply) {
      if (wire === 'openai')
        return {
          id: `r${index}`,
          custom_id: item.customId,
          response: {
            status_code: reply.retryable ? 500 : 400,
            body: { error: { message: reply.error } },
          },
          error: null,
        };
      if (wire === 'anthropic')
        return {
          custom_id: item.customId,
          result: {
            type: 'errored',
            error: {
              type: 'error',
              error: {
                type: reply.retryable ? 'api_error' : 'invalid_request_error',
                message: reply.error,
              },
            },
          },
        };
      return {
        key: item.customId,
        error: {
          code: reply.retryable ? 13 : 3,
          message: reply.error,
          status: reply.retryable ? 'INTERNAL' : 'INVALID_ARGUMENT',
        },
      };
    }
    const success = successBody(wire, {
      text: reply.text,
      toolCalls: [],
      model: parsed.model ?? item.model,
      finishReason: 'stop',
      inputTokens: Math.max(1, Math.ceil(parsed.text.length / 4)),
      outputTokens: Math.max(1, Math.ceil(reply.text.length / 4)),
      index,
    });
    if (wire === 'openai')
      return {
        id: `r${index}`,
        custom_id: item.customId,
        response: { status_code: 200, request_id: `req-${index}`, body: success },
        error: null,
      };
    if (wire === 'anthropic')
      return { custom_id: item.customId, result: { type: 'succeeded', message: success } };
    return { key: item.customId, response: success };
  }

  private async openai(
    request: IncomingMessage,
    method: string,
    pathname: string,
    body: Buffer,
    response: ServerResponse,
  ): Promise<void> {
    if (method === 'POST' && pathname === '/v1/files') {
      const form = await new Request('http://fake/upload', {
        method: 'POST',
        headers: { 'content-type': String(request.headers['content-type']) },
        body,
      }).formData();
      const file = form.get('file') as File;
      const id = this.nextId('file-');
      this.files.set(id, Buffer.from(await file.arrayBuffer()));
      return send(response, 200, {
        id,
        object: 'file',
        bytes: file.size,
        created_at: Math.floor(Date.now() / 1000),
        filename: file.name,
        purpose: String(form.get('purpose')),
        status: 'processed',
      });
    }
    if (method === 'POST' && pathname === '/v1/batches') {
      const input = JSON.parse(body.toString('utf8')) as Json;
      const content = this.files.get(String(input.input_file_id))?.toString('utf8') ?? '';
      const items = content
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Json)
        .map((line) => ({
          customId: String(line.custom_id),
          body: line.body as Json,
          model: String((line.body as Json).model),
        }));
      return this.replyCreated(
        response,
        this.openaiBatch(
          this.newBatch('openai', this.nextId('batch_'), items, {
            metadata: input.metadata ?? null,
            input_file_id: input.input_file_id,
          }),
        ),
      );
    }
    const match = /^\/v1\/batches\/([^/]+)$/.exec(pathname);
    if (method === 'GET' && match) {
      const batch = this.batches.find((entry) => entry.id === match[1] && entry.wire === 'openai');
      if (!batch) return send(response, 404, { error: { message: 'no such batch' } });
      this.poll(batch);
      return send(response, 200, this.openaiBatch(batch));
    }
    if (method === 'GET' && pathname === '/v1/batches') {
      const data = this.batches
        .filter((entry) => entry.wire === 'openai')
        .reverse()
        .map((entry) => this.openaiBatch(entry));
      return send(response, 200, {
        object: 'list',
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(pathname);
    if (method === 'GET' && content) {
      const batch = this.batches.find((entry) => `${entry.id}-out` === content[1]);
      return batch?.results
        ? this.sendResults(response, batch)
        : send(response, 404, { error: { message: 'no such file' } });
    }
    send(response, 404, { error: { message: `no route ${method} ${pathname}` } });
  }

  private openaiBatch(batch: FakeBatch): Json {
    return this.shown(this.openaiBatchRecord(batch), batch);
  }

  private openaiBatchRecord(batch: FakeBatch): Json {
    const failed = batch.results
      ? batch.results
          .split('\n')
          .filter((line) => line.includes('"status_code":4') || line.includes('"status_code":5'))
          .length
      : 0;
    return {
      id: batch.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: batch.meta.input_file_id,
      completion_window: '24h',
      status: batch.ended ? 'completed' : 'in_progress',
      output_file_id: batch.ended ? `${batch.id}-out` : null,
      error_file_id: null,
      created_at: Math.floor(batch.createdAt / 1000),
      request_counts: {
        total: batch.items.length,
        completed: batch.ended ? batch.items.length - failed : 0,
        failed,
      },
      metadata: batch.meta.metadata,
    };
  }

  private anthropic(
    method: string,
    pathname: string,
    body: Buffer,
    response: ServerResponse,
  ): void | Promise<void> {
    if (method === 'POST' && pathname === '/v1/messages/batches') {
      const input = JSON.parse(body.toString('utf8')) as {
        requests: { custom_id: string; params: Json }[];
      };
      const items = input.requests.map((entry) => ({
        customId: entry.custom_id,
        body: entry.params,
        model: String(entry.params.model),
      }));
      return this.replyCreated(
        response,
        this.anthropicBatch(this.newBatch('anthropic', this.nextId('msgbatch_'), items, {})),
      );
    }
    if (method === 'GET' && pathname === '/v1/messages/batches') {
      const data = this.batches
        .filter((entry) => entry.wire === 'anthropic')
        .reverse()
        .map((entry) => this.anthropicBatch(entry));
      return send(response, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    const match = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(pathname);
    const batch = match
      ? this.batches.find((entry) => entry.id === match[1] && entry.wire === 'anthropic')
      : undefined;
    if (method === 'GET' && batch && match?.[2])
      return batch.results
        ? this.sendResults(response, batch)
        : send(response, 404, { error: { message: 'not ended' } });
    if (method === 'GET' && batch) {
      this.poll(batch);
      return send(response, 200, this.anthropicBatch(batch));
    }
    send(response, 404, {
      type: 'error',
      error: { type: 'not_found_error', message: `no route ${method} ${pathname}` },
    });
  }

  private anthropicBatch(batch: FakeBatch): Json {
    return this.shown(this.anthropicBatchRecord(batch), batch);
  }

  private anthropicBatchRecord(batch: FakeBatch): Json {
    const errored = batch.results
      ? batch.results.split('\n').filter((line) => line.includes('"type":"errored"')).length
      : 0;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.ended ? 'ended' : 'in_progress',
      request_counts: {
        processing: batch.ended ? 0 : batch.items.length,
        succeeded: batch.ended ? batch.items.length - errored : 0,
        errored,
        canceled: 0,
        expired: 0,
      },
      created_at: new Date(batch.createdAt).toISOString(),
      ended_at: batch.ended ? new Date().toISOString() : null,
      expires_at: new Date(batch.createdAt + 86_400_000).toISOString(),
      archived_at: null,
      cancel_initiated_at: null,
      results_url: batch.ended ? `${this.url}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  private gemini(
    request: IncomingMessage,
    method: string,
    url: URL,
    body: Buffer,
    response: ServerResponse,
  ): void | Promise<void> {
    const { pathname } = url;
    if (
      method === 'POST' &&
      pathname === '/upload/v1beta/files' &&
      !url.searchParams.has('upload_id')
    ) {
      const id = this.nextId('up');
      const displayName = String(
        ((JSON.parse(body.toString('utf8') || '{}') as Json).file as Json | undefined)
          ?.displayName ?? '',
      );
      this.uploads.set(id, { chunks: [], displayName });
      return send(
        response,
        200,
        {},
        {
          'x-goog-upload-url': `${this.url}/upload/v1beta/files?upload_id=${id}`,
          'x-goog-upload-status': 'active',
        },
      );
    }
    if (method === 'POST' && pathname === '/upload/v1beta/files') {
      const upload = this.uploads.get(url.searchParams.get('upload_id') ?? '');
      if (!upload)
        return send(response, 404, {
          error: { code: 404, message: 'no such upload', status: 'NOT_FOUND' },
        });
      upload.chunks.push(body);
      if (!String(request.headers['x-goog-upload-command']).includes('finalize'))
        return send(response, 200, {}, { 'x-goog-upload-status': 'active' });
      const name = this.nextId('files/in');
      this.files.set(name, Buffer.concat(upload.chunks));
      return send(
        response,
        200,
        {
          file: {
            name,
            displayName: upload.displayName,
            mimeType: 'application/jsonl',
            sizeBytes: String(this.files.get(name)!.length),
            state: 'ACTIVE',
            uri: `${this.url}/v1beta/${name}`,
          },
        },
        { 'x-goog-upload-status': 'final' },
      );
    }
    const create = /^\/v1beta\/models\/([^/:]+):batchGenerateContent$/.exec(pathname);
    if (method === 'POST' && create) {
      const input = (JSON.parse(body.toString('utf8')) as Json).batch as Json;
      const fileName = String(
        (input.inputConfig as Json | undefined)?.fileName ??
          (input.input_config as Json | undefined)?.file_name ??
          '',
      );
      const lines = (this.files.get(fileName)?.toString('utf8') ?? '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Json);
      const items = lines.map((line) => ({
        customId: String(line.key),
        body: line.request as Json,
        model: create[1]!,
      }));
      return this.replyCreated(
        response,
        this.geminiBatch(
          this.newBatch('gemini', this.nextId('batches/'), items, {
            displayName: input.displayName ?? input.display_name ?? '',
            model: `models/${create[1]}`,
          }),
        ),
      );
    }
    if (method === 'GET' && pathname === '/v1beta/batches')
      return send(response, 200, {
        operations: this.batches
          .filter((entry) => entry.wire === 'gemini')
          .reverse()
          .map((entry) => this.geminiBatch(entry)),
      });
    const get = /^\/v1beta\/(batches\/[^/:]+)$/.exec(pathname);
    const batch = get
      ? this.batches.find((entry) => entry.id === get[1] && entry.wire === 'gemini')
      : undefined;
    if (method === 'GET' && batch) {
      this.poll(batch);
      return send(response, 200, this.geminiBatch(batch));
    }
    const download = /^\/v1beta\/files\/([^/:]+):download$/.exec(pathname);
    const source = download
      ? this.batches.find(
          (entry) =>
            entry.wire === 'gemini' && `out-${entry.id.slice('batches/'.length)}` === download[1],
        )
      : undefined;
    if (method === 'GET' && source?.results) return this.sendResults(response, source);
    send(response, 404, {
      error: { code: 404, message: `no route ${method} ${pathname}`, status: 'NOT_FOUND' },
    });
  }

  private geminiBatch(batch: FakeBatch): Json {
    return this.shown(this.geminiBatchRecord(batch), batch);
  }

  private geminiBatchRecord(batch: FakeBatch): Json {
    const metadata: Json = {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
      name: batch.id,
      displayName: batch.meta.displayName,
      model: batch.meta.model,
      state: batch.ended ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_RUNNING',
      createTime: new Date(batch.createdAt).toISOString(),
      batchStats: { requestCount: String(batch.items.length) },
    };
    if (batch.ended)
      metadata.output = { responsesFile: `files/out-${batch.id.slice('batches/'.length)}` };
    return { name: batch.id, metadata, done: batch.ended };
  }
}
