import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

const REASONS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'request headers (or the URL) are too large; send a shorter URL, or use POST /v1/search' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request took too long to arrive' },
};
const DEFAULT = { status: 400, message: 'malformed HTTP request; check the request line and headers' };
const TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's HTTP parser refuses never reach Fastify's routing (a header line without a
 * colon, both Content-Length and Transfer-Encoding, an oversized URL): Fastify would answer
 * in its own shape. This writes the spec's Error shape, with an x-request-id, straight to
 * the socket.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy(err);
    return;
  }
  const { status, message } = REASONS[err.code ?? ''] ?? DEFAULT;
  const body = JSON.stringify({ error: { status, message } });
  socket.end(
    `HTTP/1.1 ${status} ${TEXT[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
