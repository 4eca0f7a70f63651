/** The adapters' lean fetch over real sockets: bodies, headers, compression, and failures shaped like the global fetch's. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/providers/node-fetch.js';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/echo') {
        response.writeHead(201, {
          'content-type': 'application/json',
          'x-seen': String(request.headers['x-test']),
        });
        return response.end(
          JSON.stringify({
            method: request.method,
            body,
            length: request.headers['content-length'],
          }),
        );
      }
      if (request.url === '/gzip') {
        response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
        return response.end(gzipSync('compressed reply'));
      }
      if (request.url === '/truncate') {
        response.writeHead(200, { 'content-length': '100' });
        return response.write('{"partial":', () => response.socket?.destroy());
      }
      if (request.url === '/empty') {
        response.writeHead(204);
        return response.end();
      }
      // /hang: never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('nodeFetch', () => {
  it('sends method, headers and body, and returns status, headers and the whole body', async () => {
    const response = await nodeFetch(`${url}/echo`, {
      method: 'POST',
      headers: new Headers({ 'x-test': 'yes' }),
      body: 'héllo',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(await response.json()).toEqual({
      method: 'POST',
      body: 'héllo',
      length: String(Buffer.byteLength('héllo')),
    });
  });

  it('decodes a compressed reply and handles a reply without a body', async () => {
    expect(await (await nodeFetch(`${url}/gzip`)).text()).toBe('compressed reply');
    const empty = await nodeFetch(`${url}/empty`, { method: 'POST', body: '{}' });
    expect(empty.status).toBe(204);
  });

  it('fails a truncated reply or a refused connection as TypeError("fetch failed") with the cause', async () => {
    await expect(nodeFetch(`${url}/truncate`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: expect.any(Error),
    });
    await expect(nodeFetch('http://127.0.0.1:1/')).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  it('rejects with the signal reason when aborted, before or during the request', async () => {
    const early = new AbortController();
    early.abort(new Error('stop early'));
    await expect(nodeFetch(`${url}/hang`, { signal: early.signal })).rejects.toThrow('stop early');
    const late = AbortSignal.timeout(50);
    await expect(
      nodeFetch(`${url}/hang`, { method: 'POST', body: 'x', signal: late }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
