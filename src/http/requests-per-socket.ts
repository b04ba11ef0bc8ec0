import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closes a keep-alive connection after its `max`-th request. Node's maxRequestsPerSocket
 * (also set, see server-timeouts.ts) only writes `Connection: close` on that answer and then
 * leaves the socket open until the keep-alive timeout, answering 503 to anything more; an
 * explicit header makes Node close it as soon as the answer is written.
 */
export function registerRequestsPerSocket(app: FastifyInstance, max: number): void {
  if (max <= 0) return;
  const served = new WeakMap<Socket, number>();
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    const n = (served.get(socket) ?? 0) + 1;
    served.set(socket, n);
    if (n >= max) reply.header('connection', 'close');
    done();
  });
}
