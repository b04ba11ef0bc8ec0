import type { Socket } from 'node:net';
import { rawErrorResponse } from './raw-error-response.ts';
import { expireRequest } from './request-deadline.ts';
import { inSeconds } from '../domain/durations.ts';

/** The statuses this handler answers with (TEXT has the reason phrase of each). */
type RawStatus = 400 | 408 | 431;

const REASONS: Record<string, { status: RawStatus; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: 'request headers (or the URL) are too large; send a shorter URL, or use POST /v1/search',
  },
};
const DEFAULT: { status: RawStatus; message: string } = {
  status: 400,
  message: 'malformed HTTP request; check the request line and headers',
};
const TEXT: Record<RawStatus, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Requests Node's HTTP parser refuses never reach Fastify's routing (a header line without a
 * colon, both Content-Length and Transfer-Encoding, an oversized URL): Fastify would answer
 * in its own shape. This writes the spec's Error shape, with an x-request-id, straight to
 * the socket.
 *
 * Node's request timeouts arrive here too. A body still arriving is failed inside Fastify
 * (request-deadline.ts); late headers get a raw 408 and the connection is closed once it
 * is written, so the client cannot go on sending into it.
 */
export function makeClientErrorHandler(timeouts: { headersTimeoutMs: number; requestTimeoutMs: number }) {
  const lateHeaders = `the request headers were not received within ${inSeconds(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs))}`;
  return function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      if (expireRequest(socket, timeouts.requestTimeoutMs)) return;
      if (!socket.writable) socket.destroy();
      else socket.end(rawErrorResponse(408, TEXT[408], lateHeaders), () => socket.destroy());
      return;
    }
    if (!socket.writable) {
      socket.destroy(err);
      return;
    }
    const { status, message } = REASONS[err.code ?? ''] ?? DEFAULT;
    socket.end(rawErrorResponse(status, TEXT[status], message));
  };
}
