import { setTimeout as sleep } from 'node:timers/promises';
import { inSeconds } from '../domain/durations.ts';
import { DomainError } from '../domain/errors.ts';
import { rateLimitRefusal, takeRequest } from '../keys/rate-limit.ts';
import type { RequestContext } from '../search/search-service.ts';
import type { RateLimiter } from '../store/ports.ts';
import type { FetchCapture } from './fetch-capture.ts';
import { createHostPacer, type HostPacer } from './host-pacer.ts';
import { createSiteFetch, type PipelineFetch, type SiteFetch } from './site-fetch.ts';

/** What a site-walking service (POST /v1/map, POST /v1/crawl) is built on. */
export interface WalkServiceDeps {
  /** The fetch pipeline behind /v1/fetch: capacity, counting, every layer. */
  fetch: PipelineFetch;
  capture: FetchCapture;
  /** Draws on the caller's bucket (keys' and anonymous callers'). */
  rateLimiter: RateLimiter;
  /** SCOUT_MAP_DELAY_MS: the pause between two requests of a site walk to one host. */
  delayMs: number;
}

/** Requests of one walk in flight at once (each host still gets one at a time). */
const MAX_IN_FLIGHT = 2;

/**
 * Runs `walk` under its own deadline of `timeoutMs` (and the caller's leaving), with the
 * fetch, pacer and charge of one call: `what` names it in the timeout's message ("the map").
 * `waitForRate`: a refused charge waits until the bucket allows one more request (or the
 * deadline) instead of refusing, for a walk nobody waits on (an asynchronous crawl job).
 */
export async function withWalk<T>(
  deps: WalkServiceDeps,
  ctx: RequestContext,
  o: { timeoutMs: number; what: string; waitForRate?: boolean },
  walk: (signal: AbortSignal, call: { fetch: SiteFetch; pacer: HostPacer; charge(): Promise<boolean> }) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(new DomainError('timeout', `${o.what} took its whole timeout_ms of ${inSeconds(o.timeoutMs)}`)),
    o.timeoutMs,
  );
  const onGone = () => deadline.abort(ctx.signal?.reason);
  if (ctx.signal?.aborted === true) onGone();
  else ctx.signal?.addEventListener('abort', onGone, { once: true });
  const { caller } = ctx;
  try {
    return await walk(deadline.signal, {
      fetch: createSiteFetch(deps.fetch, deps.capture, caller),
      pacer: createHostPacer({ maxInFlight: MAX_IN_FLIGHT, delayMs: deps.delayMs }),
      // A caller without a bucket (none: every route and tool call has one) is not charged.
      charge: async () => {
        if (caller === undefined) return true;
        for (;;) {
          const decision = await takeRequest(deps.rateLimiter, caller);
          if (rateLimitRefusal(decision) === undefined) return true;
          if (o.waitForRate !== true) return false;
          // Node's abortable timer: rejects when the deadline aborts, which ends the wait.
          await sleep(Math.max(decision.retryAfterMs, 50), undefined, { signal: deadline.signal }).catch(
            () => undefined,
          );
          if (deadline.signal.aborted) return false;
        }
      },
    });
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onGone);
  }
}
