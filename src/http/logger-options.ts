import { pino, type Logger } from 'pino';
import { redactPathKey } from './path-key.ts';

/**
 * The process logger. Both auth headers are redacted wherever they appear, and requests are
 * logged by path without their query string (a caller may wrongly put a key there), and a
 * key in the path (SCOUT_PATH_KEYS) is written `/k/[redacted]/…`.
 *
 * Without a stream it writes to process.stdout, not to pino's default fd-1 destination:
 * that one registers an exit hook which, on a dead or full pipe, retries its synchronous
 * flush every 100 ms forever, so the process never ends (`scout serve` passes a stream
 * that drops lines instead, see src/cli/non-blocking-output.ts).
 */
export function createLogger(level: string, stream: NodeJS.WritableStream = process.stdout): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        path: redactPathKey(req.url.split('?', 1)[0] ?? ''),
        ip: req.ip,
      }),
      err: pino.stdSerializers.err,
    },
  };
  return pino(options, stream);
}
