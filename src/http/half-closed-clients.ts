import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How often a half-closed HTTP/1.1 client is asked whether it is still there (see below). */
export const HALF_CLOSED_PROBE_MS = 500;

/**
 * A client that sends its request and then shuts its write side (HTTP/1.0-style clients,
 * some proxies) still reads the answer. Node's default aborts the request at the client's
 * FIN, so any route that answered after an await (a fetch, a file read, a metrics scrape)
 * sent nothing. Half-open, Node closes the connection once the answer in progress is
 * written, and an idle one at once, as before.
 *
 * A FIN alone cannot tell a client that half-closed from one that left for good (an agent
 * that gave up closes its socket): both look the same until the server writes. So while a
 * request of a client whose FIN came is unanswered, Scout writes an interim `102 Processing`
 * every HALF_CLOSED_PROBE_MS: a client that is still reading skips it (HTTP clients must
 * parse 1xx answers, RFC 9110 §15.2); to a client that is gone the write fails, the
 * connection closes, and the request's work is cancelled (client-gone.ts) instead of holding
 * a fetch slot until its deadline. HTTP/1.0 requests get no 1xx (the RFC forbids it): an
 * HTTP/1.0 client that leaves is found out when its answer is written.
 */
export function answerHalfClosedClients(server: Server): void {
  // A public property of http.Server that @types/node does not declare.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('request', probeWhenHalfClosed);
}

function probeWhenHalfClosed(req: IncomingMessage, res: ServerResponse): void {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return;
  const socket = req.socket;
  let timer: NodeJS.Timeout | undefined;
  const probe = () => {
    if (res.headersSent || res.writableEnded || socket.destroyed) return stop();
    res.writeProcessing();
  };
  const start = () => {
    timer ??= setInterval(probe, HALF_CLOSED_PROBE_MS);
    timer.unref();
  };
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    socket.off('end', start);
  };
  res.once('close', stop);
  res.once('finish', stop);
  if (socket.readableEnded) start();
  else socket.once('end', start);
}
