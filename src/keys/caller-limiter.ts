import { isAnonymousCaller } from '../domain/anonymous-caller.ts';
import type { RateLimiter } from '../store/ports.ts';

/**
 * One RateLimiter over two: keys draw from `keyed` (SCOUT_RATE_LIMIT_RPM), anonymous callers
 * (`anon:<address group>`) from `anonymous` (SCOUT_ANONYMOUS_RPM). Their bucket names never
 * meet, so both may live in one store. Without an anonymous limiter (the tier is off) there
 * is no anonymous caller, and `keyed` is returned as it is.
 */
export function callerRateLimiter(keyed: RateLimiter, anonymous: RateLimiter | undefined): RateLimiter {
  if (anonymous === undefined) return keyed;
  const of = (caller: string): RateLimiter => (isAnonymousCaller(caller) ? anonymous : keyed);
  return {
    consume: (caller, cost) => of(caller).consume(caller, cost),
    peek: (caller) => of(caller).peek(caller),
  };
}
