/** BufferedResponse answers as undici's Response does for every use the adapters make of it. */
import { describe, expect, it } from 'vitest';
import { BufferedResponse } from './buffered-response.js';

const pairs: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['X-Request-Id', 'abc'],
  ['Retry-After', '2'],
  ['x-multi', 'one'],
  ['X-Multi', 'two'],
  ['Set-Cookie', 'a=1'],
  ['set-cookie', 'b=2'],
];
const text = '{"héllo":"wörld"}';
const make = (body: string | null = text, status = 200) =>
  [
    new BufferedResponse({
      status,
      statusText: 'OK',
      headers: pairs,
      bytes: body === null ? null : Buffer.from(body),
      url: 'http://x/',
    }),
    new Response(body, { status, statusText: 'OK', headers: pairs }),
  ] as const;

describe('BufferedResponse', () => {
  it('reads headers as Headers does: any case, repeats joined, iterated in name order, read-only', () => {
    const [mine, theirs] = make();
    expect([...mine.headers]).toEqual([...theirs.headers]);
    expect(Object.fromEntries([...mine.headers])).toEqual(Object.fromEntries([...theirs.headers]));
    for (const name of ['content-type', 'RETRY-AFTER', 'x-multi', 'set-cookie', 'missing'])
      expect(mine.headers.get(name)).toBe(theirs.headers.get(name));
    expect(mine.headers.has('X-REQUEST-ID')).toBe(true);
    expect(mine.headers.getSetCookie()).toEqual(theirs.headers.getSetCookie());
    const seen: string[] = [];
    mine.headers.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toContain('x-multi=one, two');
    expect(() => mine.headers.set()).toThrow(TypeError);
  });

  it('has the status fields of a Response', () => {
    for (const status of [200, 201, 299, 300, 404, 429, 500]) {
      const [mine, theirs] = make('x', status);
      expect([mine.status, mine.ok, mine.statusText]).toEqual([
        theirs.status,
        theirs.ok,
        theirs.statusText,
      ]);
    }
  });

  it('gives the body once, through text, json, arrayBuffer or a reader', async () => {
    const [mine] = make();
    expect(await mine.text()).toBe(text);
    expect(mine.bodyUsed).toBe(true);
    await expect(mine.text()).rejects.toThrow(TypeError);
    expect(await make()[0].json()).toEqual({ héllo: 'wörld' });
    expect(Buffer.from(await make()[0].arrayBuffer()).toString()).toBe(text);

    const reader = make()[0].body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe(text);
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('has no body for an empty reply, and an empty reader for an empty body', async () => {
    expect(make(null, 204)[0].body).toBeNull();
    expect(await make(null, 204)[0].text()).toBe('');
    expect(await make('')[0].body!.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('cancels a body, and serves other stream uses from a real ReadableStream', async () => {
    const [cancelled] = make();
    await cancelled.body!.cancel();
    expect(cancelled.bodyUsed).toBe(true);
    const decoded = make()[0].body!.pipeThrough(new TextDecoderStream());
    let out = '';
    for await (const chunk of decoded as unknown as AsyncIterable<string>) out += chunk;
    expect(out).toBe(text);
    expect(() => make()[0].body!.getReader({ mode: 'byob' })).toThrow(TypeError);
  });

  it('clones an unread reply into an independent one', async () => {
    const [mine] = make();
    const copy = mine.clone();
    expect(await copy.text()).toBe(text);
    expect(await mine.text()).toBe(text);
    expect(() => mine.clone()).toThrow(TypeError);
  });
});
