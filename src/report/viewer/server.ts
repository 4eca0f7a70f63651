/**
 * `apb view`'s HTTP server (I/O): serves only its page and two JSON endpoints on 127.0.0.1,
 * re-reading changed runs when the page or the JSON is requested (the status poll only stats the
 * files), refusing other hosts, paths and methods.
 */
import type { Limits } from '../../limits.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execSite, isExecRunDir } from './exec-site.js';
import { allRunDirs, historySite, reportSite } from './site.js';
import { listenError } from '../../errors.js';

/** A running viewer: its URL and how to stop it. */
export interface Viewer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  head = false,
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(head ? undefined : body);
}

/** Only requests addressed to this server by loopback name (no DNS-rebinding through another host name). */
function allowedHost(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host ?? '';
  return host === `${HOST}:${port}` || host === `localhost:${port}`;
}

/**
 * Starts the viewer on 127.0.0.1 (`port` 0 = a free port): run directories get their report at `/`;
 * when a target is a folder to search (`runs/`), `/` is the history of every run found below it; one
 * `apb exec` run directory gets its exec report.
 */
export async function startViewer(
  targets: readonly string[],
  options: {
    port?: number;
    comparePaper?: boolean;
    minIntervalMs?: number;
    limits?: Limits | undefined;
  } = {},
): Promise<Viewer> {
  const liveOptions = {
    comparePaper: options.comparePaper,
    minIntervalMs: options.minIntervalMs,
    limits: options.limits,
  };
  const site =
    targets.length === 1 && isExecRunDir(targets[0]!)
      ? execSite(targets[0]!, liveOptions)
      : allRunDirs(targets)
        ? await reportSite(targets, liveOptions)
        : historySite(targets, liveOptions);
  let port = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const head = request.method === 'HEAD';
      if (!allowedHost(request, port))
        return send(response, 421, 'text/plain; charset=utf-8', 'wrong host\n');
      if (request.method !== 'GET' && !head)
        return send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      const url = new URL(request.url ?? '/', `http://${HOST}:${port}`);
      const served = await site.serve(url.pathname);
      if (served) return send(response, 200, served.type, served.body, head);
      return send(response, 404, 'text/plain; charset=utf-8', 'not found\n', head);
    })().catch((error: unknown) => {
      if (!response.headersSent)
        send(
          response,
          500,
          'text/plain; charset=utf-8',
          `viewer error: ${(error as Error).message}\n`,
        );
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(HOST, options.port ?? 0, error)));
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
