import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defined } from './defined.ts';

/**
 * A loopback HTTP server for tests, driven by a route table.
 *
 *   const server = await startFixtureServer({
 *     '/page': { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' },
 *     '/slow': (req, res) => { setTimeout(() => res.end('late'), 5000); },
 *   });                                    // host defaults to 127.0.0.2, port to 0 (any free)
 *   server.url('/page')                    // 'http://127.0.0.2:<port>/page'
 *   server.requests                        // every request seen: { method, path, headers, localAddress }
 *   await server.close();                  // destroys open sockets too
 *
 * Routes match the path without the query string; unknown paths answer 404. A route is either
 * a static response or a handler that writes to `res` itself (it may also never answer).
 * Each served socket is tracked, so `server.socketClosed(n)` tells whether the n-th connection
 * has been closed (useful to prove a fetch cut its connection), and `server.whenSocketCloses(n)`
 * waits for it.
 */

export interface StaticRoute {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
}
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type Routes = Record<string, StaticRoute | RouteHandler>;

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The server-side address the connection arrived on (shows which address a client dialled). */
  localAddress: string;
}

export interface FixtureServer {
  host: string;
  port: number;
  /** `http://host:port` */
  origin: string;
  url(path: string): string;
  requests: SeenRequest[];
  /** Sockets accepted so far, in order. */
  sockets: Socket[];
  socketClosed(index: number): boolean;
  whenSocketCloses(index: number): Promise<void>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Loopback address to listen on; default 127.0.0.2 (the address tests allow-list). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
}

function serveStatic(route: StaticRoute, res: ServerResponse): void {
  res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/plain; charset=utf-8' });
  res.end(route.body ?? '');
}

export async function startFixtureServer(routes: Routes, options: FixtureOptions = {}): Promise<FixtureServer> {
  const host = options.host ?? '127.0.0.2';
  const requests: SeenRequest[] = [];
  const sockets: Socket[] = [];
  const closed = new WeakSet<Socket>();
  const server = http.createServer((req, res) => {
    const path = defined((req.url ?? '/').split('?', 1)[0], 'the path before any query');
    requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      localAddress: req.socket.localAddress ?? '',
    });
    const route = routes[path];
    if (route === undefined) return serveStatic({ status: 404, body: 'not found' }, res);
    if (typeof route === 'function') {
      Promise.resolve(route(req, res)).catch(() => res.destroy());
      return;
    }
    serveStatic(route, res);
  });
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.once('close', () => closed.add(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    host,
    port,
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    sockets,
    socketClosed: (i) => sockets[i] !== undefined && closed.has(sockets[i]),
    whenSocketCloses: (i) =>
      new Promise<void>((resolve) => {
        const s = sockets[i];
        if (s === undefined || closed.has(s)) return resolve();
        s.once('close', () => resolve());
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
