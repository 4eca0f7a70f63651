/**
 * `BufferedResponse`: the `Response` that `nodeFetch` hands the AI SDK, for a reply it has already
 * read whole. Building undici's `Response` costs a web stream, a `Headers` guard and their
 * promise plumbing on every call — ~0.14 ms CPU per request on this machine, a tenth of the
 * harness's cost per call (docs/performance.md) — for a body that is one buffer already.
 *
 * It answers what the adapters read (status, ok, headers, body.getReader(), text/json/arrayBuffer)
 * directly, with fetch's semantics (a body is read once; the headers are read-only; names are
 * case-insensitive and repeated headers are joined with ", "). Any other use of `body` (pipeThrough,
 * tee, async iteration…) gets a real `ReadableStream` of the same bytes.
 */

/**
 * A read-only, case-insensitive header list, as `Headers` of a received response: a repeated
 * name reads as its values joined with ", ", except `set-cookie`, whose values stay apart when
 * iterated (as the Fetch standard has it).
 */
export class BufferedHeaders {
  readonly #values = new Map<string, string>();
  readonly #cookies: string[] = [];

  /** `pairs` as received: names in any case, a name possibly repeated. */
  constructor(pairs: Iterable<readonly [string, string]>) {
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      if (key === 'set-cookie') this.#cookies.push(value);
      const earlier = this.#values.get(key);
      this.#values.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  forEach(
    callback: (value: string, name: string, headers: BufferedHeaders) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  /** In name order, as `Headers` iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.#cookies) yield [name, cookie];
      else yield [name, this.#values.get(name)!];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  set(): never {
    throw new TypeError('Headers of a received response are immutable');
  }

  append(): never {
    return this.set();
  }

  delete(): never {
    return this.set();
  }
}

/** The body of a `BufferedResponse`: one chunk, read once. */
class BufferedBody {
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(private readonly owner: BufferedResponse) {}

  get locked(): boolean {
    return this.owner.bodyUsed || (this.#stream?.locked ?? false);
  }

  getReader(options?: { mode?: 'byob' }): ReadableStreamDefaultReader<Uint8Array> {
    // A BYOB reader needs a byte stream, which would detach the reply's (possibly pooled) buffer.
    if (options?.mode) throw new TypeError('BufferedResponse: a BYOB reader is not supported');
    const bytes = this.owner.takeBytes();
    let chunk: Uint8Array | null = bytes.length > 0 ? bytes : null;
    return {
      read: async () => {
        const value = chunk;
        chunk = null;
        return value ? { done: false, value } : { done: true, value: undefined };
      },
      cancel: async () => {
        chunk = null;
      },
      releaseLock: () => undefined,
      closed: Promise.resolve(undefined),
    } as ReadableStreamDefaultReader<Uint8Array>;
  }

  async cancel(): Promise<void> {
    if (!this.owner.bodyUsed) this.owner.takeBytes();
  }

  /** A real stream for every other use; it takes the bytes then. */
  stream(): ReadableStream<Uint8Array> {
    if (!this.#stream) {
      const bytes = this.owner.takeBytes();
      this.#stream = new ReadableStream<Uint8Array>({
        start(controller) {
          if (bytes.length > 0) controller.enqueue(bytes);
          controller.close();
        },
      });
    }
    return this.#stream;
  }

  pipeThrough(
    ...args: Parameters<ReadableStream<Uint8Array>['pipeThrough']>
  ): ReturnType<ReadableStream<Uint8Array>['pipeThrough']> {
    return this.stream().pipeThrough(...args);
  }

  pipeTo(...args: Parameters<ReadableStream<Uint8Array>['pipeTo']>): Promise<void> {
    return this.stream().pipeTo(...args);
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.stream().tee();
  }

  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    return (
      this.stream() as unknown as {
        values(options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array>;
      }
    ).values(options);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this.values();
  }
}

export interface BufferedReply {
  status: number;
  statusText: string;
  headers: Iterable<readonly [string, string]>;
  /** null for the statuses that have no body (204, 304…). */
  bytes: Uint8Array | null;
  url: string;
}

/** A whole reply, read into memory, with the `Response` interface the SDK adapters use. */
export class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: BufferedHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic';
  #bytes: Uint8Array | null;
  #used = false;
  #body: BufferedBody | null | undefined;

  constructor(reply: BufferedReply) {
    this.status = reply.status;
    this.statusText = reply.statusText;
    this.headers = new BufferedHeaders(reply.headers);
    this.url = reply.url;
    this.#bytes = reply.bytes;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = this.#bytes === null ? null : new BufferedBody(this);
    return this.#body as unknown as ReadableStream<Uint8Array> | null;
  }

  /** The bytes, once: a second read fails as fetch's does. */
  takeBytes(): Uint8Array {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    const bytes = this.#bytes ?? new Uint8Array(0);
    this.#bytes = null;
    return bytes;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.takeBytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text(): Promise<string> {
    return Buffer.from(this.takeBytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([this.takeBytes()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    const type = this.headers.get('content-type');
    return new Response(this.takeBytes(), {
      headers: type ? { 'content-type': type } : {},
    }).formData();
  }

  clone(): BufferedResponse {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse({
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      bytes: this.#bytes && this.#bytes.slice(),
      url: this.url,
    });
  }
}
