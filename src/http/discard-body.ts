import type { IncomingMessage } from 'node:http';

export interface DiscardBounds {
  /** Most body bytes read and thrown away after the refusal. */
  maxBytes: number;
  /** Longest time the connection is kept for it, in milliseconds. */
  maxMs: number;
}

/**
 * Enough for the uploads a client might plausibly send by mistake (a 50 MB file on a fast
 * link takes well under the time bound), small enough that a refused client cannot hold a
 * connection or bandwidth for long.
 */
export const DISCARD_BOUNDS: DiscardBounds = { maxBytes: 128 * 1024 * 1024, maxMs: 5_000 };

/**
 * After any other answer given while the body is still arriving (401 ahead of an upload,
 * 408, a rate limit): the caller has no reason to send more, and an unauthenticated one
 * must not make Scout read much. Enough for a body in flight to land, so Node clients still
 * read the answer.
 */
export const EARLY_ANSWER_BOUNDS: DiscardBounds = { maxBytes: 1024 * 1024, maxMs: 1_000 };

/**
 * - `ended`: the whole body arrived; the connection can be closed cleanly.
 * - `gone`: the client closed or reset the connection first.
 * - `bytes`, `time`: a bound was reached, or the declared Content-Length is already past the
 *   byte bound; the caller destroys the connection.
 */
export type DiscardOutcome = 'ended' | 'gone' | 'bytes' | 'time';

/**
 * Reads what is left of a refused request body and throws it away, counting bytes only.
 *
 * Why: a server that closes a connection with unread bytes in its receive buffer makes the
 * kernel send a reset, and a reset also throws away the answer waiting in the client's
 * receive buffer. Clients that upload before they read (undici fetch, node:http) then see
 * EPIPE or ECONNRESET instead of the 413. Reading the rest first ("lingering close") lets the
 * answer arrive; the bounds keep a client from holding the connection for as long as it likes.
 */
export function discardBody(req: IncomingMessage, bounds: DiscardBounds = DISCARD_BOUNDS): Promise<DiscardOutcome> {
  if (req.readableEnded) return Promise.resolve('ended');
  if (req.destroyed) return Promise.resolve('gone');
  const declared = Number(req.headers['content-length']);
  // Reading it all would pass the bound anyway: no point making the client send any of it.
  if (declared > bounds.maxBytes) return Promise.resolve('bytes');

  return new Promise((resolve) => {
    let read = 0;
    const finish = (outcome: DiscardOutcome) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      // Flowing with no listener: anything still arriving before the close is dropped too.
      req.resume();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      // Counted, never kept: the chunk is garbage as soon as this returns.
      read += chunk.length;
      if (read > bounds.maxBytes) finish('bytes');
    };
    const onEnd = () => finish('ended');
    const onClose = () => finish(req.readableEnded ? 'ended' : 'gone');
    const timer = setTimeout(() => finish('time'), bounds.maxMs);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onClose);
    // A body stream Fastify stopped reading (request-deadline.ts) would pause us by backpressure.
    req.unpipe();
    req.resume();
  });
}
