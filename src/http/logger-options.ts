import { pino, type Logger } from 'pino';

/**
 * The process logger. Both auth headers are redacted wherever they appear, and requests are
 * logged by path without their query string (a caller may wrongly put a key there).
 */
export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  const options = {
    level,
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
      err: pino.stdSerializers.err,
    },
  };
  return stream ? pino(options, stream) : pino(options);
}
