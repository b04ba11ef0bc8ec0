import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The requests a server is answering, per connection: those whose headers have arrived and
 * whose response has not closed (several on one connection when pipelined). The connection
 * caps (connection-limits.ts: only a connection with none may be reclaimed) and the graceful
 * close (graceful-close.ts: such a connection is cut at once) both ask it, so one listener
 * keeps the count for both.
 */
export interface RequestsInFlight {
  /** Requests in flight on `socket`. */
  on(socket: Socket): number;
  /** The responses still to finish, in arrival order. */
  responses(): Iterable<ServerResponse>;
  /** Called after each response closes, with its connection (the count already lowered). */
  onSettled(listener: (socket: Socket) => void): void;
}

export function trackRequestsInFlight(server: Server): RequestsInFlight {
  const counts = new Map<Socket, number>();
  const responses = new Set<ServerResponse>();
  const settled: ((socket: Socket) => void)[] = [];
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    counts.set(socket, (counts.get(socket) ?? 0) + 1);
    responses.add(response);
    response.once('close', () => {
      responses.delete(response);
      const left = (counts.get(socket) ?? 1) - 1;
      if (left > 0) counts.set(socket, left);
      else counts.delete(socket);
      for (const listener of settled) listener(socket);
    });
  });
  return {
    on: (socket) => counts.get(socket) ?? 0,
    responses: () => responses,
    onSettled: (listener) => void settled.push(listener),
  };
}
