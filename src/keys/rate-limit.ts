import type { RateLimitDecision, RateLimiter, RateLimitState } from '../store/ports.ts';
import { DomainError } from '../domain/errors.ts';

/** A store that cannot answer is 503, never a free pass. */
async function askLimiter<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (e) {
    throw new DomainError('unavailable', 'the rate-limit store is unavailable; retry shortly', {
      cause: e,
      retryAfterS: 5,
    });
  }
}

/**
 * One request taken from a key's bucket (docs/api.md "Rate limit"). Shared by the HTTP auth
 * hook and the MCP tools, so a tools/call and a POST /v1/search drain the same bucket with
 * the same messages.
 */
export const takeRequest = (limiter: RateLimiter, keyId: string, cost = 1): Promise<RateLimitDecision> =>
  askLimiter(() => limiter.consume(keyId, cost));

/** A key's bucket read without taking from it (GET /v1/usage). */
export const peekRequest = (limiter: RateLimiter, keyId: string): Promise<RateLimitState> =>
  askLimiter(() => limiter.peek(keyId));

/**
 * The 429 for a refused decision, with when to retry (whole seconds, at least 1). `cost`: the
 * requests the refused call takes at once (an MCP tool that reads several pages); more than the
 * whole limit can never be taken, so that is a 400 saying so rather than a retry that cannot help.
 */
export function rateLimitRefusal(d: RateLimitDecision, cost = 1): DomainError | undefined {
  if (d.allowed) return undefined;
  if (cost > d.limit) {
    return new DomainError(
      'invalid',
      `this call takes ${cost} requests of the rate limit at once (one per page or query), more than the ${d.limit} a minute it allows; send at most ${d.limit} per call`,
    );
  }
  const retry = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
  const takes = cost > 1 ? ` (this call takes ${cost} at once, one per page or query)` : '';
  return new DomainError(
    'rate_limited',
    `rate limit of ${d.limit} requests per minute exceeded${takes}; retry in ${retry} s`,
    { retryAfterS: retry },
  );
}

/** RateLimit-* headers of an authenticated response. */
export const rateLimitHeaders = (d: RateLimitDecision): Record<string, string> => ({
  'ratelimit-limit': String(d.limit),
  'ratelimit-remaining': String(d.remaining),
  'ratelimit-reset': String(Math.ceil(d.resetMs / 1000)),
});
