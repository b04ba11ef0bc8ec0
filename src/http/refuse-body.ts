import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { DISCARD_BOUNDS, discardBody, type DiscardBounds } from './discard-body.ts';

/**
 * Sends a refusal of the request body (413) while the client may still be uploading it. The
 * whole answer goes out at once (Content-Length, Connection: close); the rest of the body is
 * then read and thrown away (see discardBody for why), and only then does the response end,
 * which lets Node close the connection cleanly. Past a bound, the connection is destroyed.
 */
export function sendBodyRefusal(
  reply: FastifyReply,
  json: string,
  bounds: DiscardBounds = DISCARD_BOUNDS,
): FastifyReply {
  const req = reply.request.raw;
  // Refused after the body was read whole (a rule on its content): nothing is in flight.
  if (req.readableEnded) return reply.send(json);
  const socket = req.socket;
  reply.header('connection', 'close').header('content-length', String(Buffer.byteLength(json)));
  // A stream the response waits on: it carries the answer now and ends after the discard.
  const payload = new Readable({ read() {} });
  payload.push(json);
  void discardBody(req, bounds).then((outcome) => {
    if (outcome === 'bytes' || outcome === 'time') socket?.destroy();
    else payload.push(null);
  });
  return reply.send(payload);
}
