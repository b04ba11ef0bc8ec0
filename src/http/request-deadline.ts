import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inSeconds } from '../domain/durations.ts';

/** The newest request of a connection: the only one whose body can still be arriving. */
interface InFlight {
  req: IncomingMessage;
  res: ServerResponse;
  /** The stream Fastify reads the body from, when the body was not all there yet. */
  body?: PassThrough;
}

const inFlight = new WeakMap<Socket, InFlight>();

/** Raised into Fastify's body reader: the error handler renders it as 408. */
export class RequestTimeoutError extends Error {
  readonly statusCode = 408;
  readonly code = 'SCOUT_REQUEST_TIMEOUT';
}

/**
 * Node's requestTimeout (server-timeouts.ts) is the clock for a request's body, but Node
 * only reports its expiry as a clientError on the socket, and would answer a raw 408 past
 * Fastify. These hooks note each connection's newest request and, when its body is still
 * arriving once parsing starts, give Fastify a stream of it that expireRequest can fail:
 * the 408 then goes through the error handler, with the request's own id and log line.
 */
export function registerRequestDeadline(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request and need no promise.
  app.addHook('onRequest', (request, reply, done) => {
    inFlight.set(request.raw.socket, { req: request.raw, res: reply.raw });
    done();
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const entry = inFlight.get(request.raw.socket);
    // A body that is all there cannot time out: no extra stream for it.
    if (request.raw.complete || entry?.req !== request.raw) {
      done(null, payload);
      return;
    }
    const body = new PassThrough();
    // Fastify's reader takes the error; with no reader left the answer is already out.
    body.on('error', () => undefined);
    payload.pipe(body);
    entry.body = body;
    done(null, body);
  });
}

/**
 * Called when Node reports that a request on `socket` did not arrive in time. Returns
 * false when no request is being received there (its headers are what is late), so the
 * caller answers for the connection itself. Otherwise: a body Fastify is still reading
 * fails with a 408; anything else (an answer already sent or under way, a request not yet
 * reading its body) just loses its connection.
 */
export function expireRequest(socket: Socket, requestTimeoutMs: number): boolean {
  const entry = inFlight.get(socket);
  if (entry === undefined || (entry.req.complete && entry.res.writableEnded)) return false;
  const { body, req, res } = entry;
  if (!req.complete && body !== undefined && !body.destroyed && !res.headersSent) {
    const s = inSeconds(requestTimeoutMs);
    body.destroy(
      new RequestTimeoutError(
        `the request body was not received within ${s}; send the whole request within ${s} of its first byte`,
      ),
    );
  } else {
    socket.destroy();
  }
  return true;
}
