import type { RateLimiter, RateLimitState } from '../store/ports.ts';
import { DomainError } from './errors.ts';

/**
 * A key's bucket read without taking from it (GET /v1/usage). As with takeRequest, a store
 * that cannot answer is 503.
 */
export async function peekRequest(limiter: RateLimiter, keyId: string): Promise<RateLimitState> {
  try {
    return await limiter.peek(keyId);
  } catch (e) {
    throw new DomainError('unavailable', 'the rate-limit store is unavailable; retry shortly', { cause: e, retryAfterS: 5 });
  }
}
