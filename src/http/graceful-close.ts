import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { RequestsInFlight } from './requests-in-flight.ts';

export interface GracefulCloseOptions {
  /** How long requests in flight at the close may go on before their connections are cut. */
  drainMs: number;
  log: { warn(obj: object, msg: string): void };
  /** The server's requests in flight (requests-in-flight.ts). */
  inFlight: RequestsInFlight;
}

/**
 * What closing the app does to its connections. Node's server.close() stops its header and
 * request timeouts (it clears the interval that enforces them) and then waits for every
 * connection to end, so one socket that sends nothing, or trickles its headers, kept a
 * closing Scout alive until the client left, and a supervisor's SIGKILL then lost the
 * budget lease and the queued ad events.
 *
 * At the close: every connection without a request in flight (idle keep-alive, not a byte
 * sent, headers half sent) is destroyed at once; a connection whose request is in flight
 * (its headers arrived) is closed as soon as its answer is written; whatever is still open
 * `drainMs` later is destroyed. Connections accepted meanwhile are destroyed at once.
 */
export function registerGracefulClose(app: FastifyInstance, options: GracefulCloseOptions): void {
  const server: Server = app.server;
  const { inFlight } = options;
  const sockets = new Set<Socket>();
  let closing = false;

  // After the last answer's bytes are written: end, then destroy (the client may never end its side).
  inFlight.onSettled((socket) => {
    if (closing && inFlight.on(socket) === 0) socket.destroySoon();
  });

  server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of sockets) if (inFlight.on(socket) === 0) socket.destroy();
    // The answers still to come say Connection: close, so clients do not reuse the connection.
    for (const response of inFlight.responses()) if (!response.headersSent) response.shouldKeepAlive = false;
    if (sockets.size > 0) {
      const timer = setTimeout(() => {
        if (sockets.size === 0) return;
        options.log.warn(
          { connections: sockets.size, drain_ms: options.drainMs },
          'shutdown: requests still in flight after the drain (SCOUT_HTTP_SHUTDOWN_DRAIN_MS); their connections are cut',
        );
        for (const socket of sockets) socket.destroy();
      }, options.drainMs);
      // The timer never holds the process; server.close() waits for the connections anyway.
      timer.unref();
      server.once('close', () => clearTimeout(timer));
    }
    done();
  });
}
