import type { FastifyReply } from 'fastify';
import { DomainError } from '../domain/errors.ts';

/**
 * A signal that aborts when the client's connection closes before its answer was sent: work
 * done for it after that (an upstream fetch, an extraction) would be thrown away while it
 * holds a fetch slot. The response's 'close' also follows a sent answer; `writableFinished`
 * tells the two apart.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished)
      controller.abort(new DomainError('timeout', 'the client closed its connection before the answer'));
  });
  return controller.signal;
}
