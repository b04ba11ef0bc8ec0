import { randomUUID } from 'node:crypto';

/**
 * The spec's Error shape as a whole raw HTTP response that closes the connection, for
 * answers written straight to a socket, where Fastify cannot answer: requests Node's parser
 * refuses or that time out in their headers, connections over a cap.
 */
export function rawErrorResponse(status: number, statusText: string, message: string, extraHeaders = ''): string {
  const body = JSON.stringify({ error: { status, message } });
  return (
    `HTTP/1.1 ${status} ${statusText}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${randomUUID()}\r\n` +
    extraHeaders +
    'Connection: close\r\n\r\n' +
    body
  );
}
