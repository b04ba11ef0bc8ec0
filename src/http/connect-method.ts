import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { rawErrorResponse } from './raw-error-response.ts';

/**
 * Answers CONNECT with a 405 in the Error shape. Node hands CONNECT to the server's
 * 'connect' listeners and, with none, destroys the socket without a byte: the caller could
 * not tell a refusal from a crash. The socket is ours here (no HTTP parser), so the answer
 * is written raw and the connection closed. Allow is empty: no resource of Scout is a tunnel.
 */
export function answerConnect(server: Server): void {
  server.on('connect', (_request: unknown, socket: Socket) => {
    socket.on('error', () => undefined);
    socket.end(
      rawErrorResponse(
        405,
        'Method Not Allowed',
        'method CONNECT is not allowed: Scout is not a proxy; use GET or POST on the API paths (see /openapi.json)',
        'Allow: \r\n',
      ),
      () => socket.destroy(),
    );
  });
}
