import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { makeErrorHandler } from './error-handler.ts';
import { PATH_SEGMENT_MAX } from './path-limits.ts';

/**
 * Fastify options for the errors its router raises before a request is routed: a path
 * parameter over PATH_SEGMENT_MAX characters (414) or one that cannot be percent-decoded
 * (400). Left to Fastify, they get its own body shape, echo the whole path back and have no
 * x-request-id, since neither the onRequest hook nor the error handler runs for them.
 */
export function frameworkErrorOptions(bodyLimit: number) {
  const errorHandler = makeErrorHandler(bodyLimit);
  return {
    routerOptions: { maxParamLength: PATH_SEGMENT_MAX },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('x-request-id', request.id);
      errorHandler(error, request, reply);
    },
  };
}
