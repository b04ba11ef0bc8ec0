import type { Config } from '../config/settings.ts';

export type ServerTimeouts = Pick<
  Config,
  'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpKeepAliveTimeoutMs' | 'httpMaxRequestsPerSocket'
>;

/**
 * Fastify options for Node's own clocks on slow clients: headers and whole-request
 * timeouts (counted from a request's first byte, only while it is arriving, never while it
 * is answered), the idle keep-alive timeout and the requests allowed per connection.
 *
 * Node looks for expired requests only every `connectionsCheckingInterval` (30 s by
 * default), which would let a 1 s timeout run for 30 s: it looks at a quarter of the
 * shorter timeout, and at least once a second. A headers timeout longer than the request
 * timeout could never fire, so it is capped (Node also refuses that pair).
 */
export function serverTimeoutOptions(t: ServerTimeouts) {
  const headersTimeout = Math.min(t.httpHeadersTimeoutMs, t.httpRequestTimeoutMs);
  return {
    requestTimeout: t.httpRequestTimeoutMs,
    keepAliveTimeout: t.httpKeepAliveTimeoutMs,
    // Fastify leaves Node's default (no limit) for 0.
    maxRequestsPerSocket: t.httpMaxRequestsPerSocket,
    http: {
      headersTimeout,
      requestTimeout: t.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(25, Math.floor(headersTimeout / 4))),
    },
  };
}
