import type { Server } from 'node:http';

/**
 * A client that sends its request and then shuts its write side (HTTP/1.0-style clients,
 * some proxies) still reads the answer. Node's default aborts the request at the client's
 * FIN, so any route that answered after an await (a fetch, a file read, a metrics scrape)
 * sent nothing. Half-open, Node closes the connection once the answer in progress is
 * written, and an idle one at once, as before.
 */
export function answerHalfClosedClients(server: Server): void {
  // A public property of http.Server that @types/node does not declare.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
