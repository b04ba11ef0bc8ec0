import type { FastifyServerOptions } from 'fastify';

/**
 * pino options: both auth headers are redacted wherever they appear, and the request
 * serializer logs the path without its query string (a caller may wrongly put a key there).
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        path: req.url.split('?', 1)[0],
        ip: req.ip,
      }),
    },
  };
}
