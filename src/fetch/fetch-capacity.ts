import { inSeconds } from '../domain/durations.ts';
import { DomainError } from '../domain/errors.ts';
import type { FetchService } from './fetch-service.ts';
import type { ByteBudget } from './byte-budget.ts';
import { runWithByteAccount } from './byte-scope.ts';
import { createFairSlots, PUSHED_OUT } from './fair-slots.ts';

/**
 * The process-wide fetch capacity, wrapped around a FetchService (compose/assemble-fetch.ts applies it to
 * the service behind POST /v1/fetch and the advanced-depth content stage):
 * - at most `concurrency` fetches run at once; the others wait in line. The wait, not the
 *   line's length, is what refuses: a waiting fetch holds no body, so the line is bounded by
 *   the deadline (below) and by `queue`, a ceiling on the memory of the line (each waiter
 *   holds its request and its caller's connection); past it the fetch is refused at once:
 *   503 with Retry-After;
 * - slots and places in line are shared fairly between callers (fair-slots.ts): a freed slot
 *   goes to the waiting caller holding the fewest, and in a full line a caller's newcomer
 *   takes the place of the latest waiter of the caller waiting most (who gets the 503);
 *   fetches without a caller (the CLI) share one;
 * - the wait in line counts against the fetch's own deadline (`timeoutMs`, the same one the
 *   service applies): the service is handed a signal that aborts at the deadline counted
 *   from arrival, so a fetch that waited 3 s has 7 s of a 10 s deadline left. A fetch still
 *   in line when half its deadline is spent (LATEST_START) is 503 with Retry-After, not
 *   504: the origin was never asked, the cause is this server's load, and the caller should
 *   come back rather than blame the site;
 * - with `bytes`, each running fetch gets a byte account for its body, closed when the
 *   fetch ends however it ends (see byte-budget.ts).
 */

/**
 * A fetch starts only while at least half its deadline is left. Starting with a sliver of
 * time left would almost surely end in a 504 that blames the origin, after spending one of
 * its requests and a slot for nothing; a typical page needs well under half the deadline.
 */
const LATEST_START = 0.5;

export interface FetchCapacityOptions {
  concurrency: number;
  /** Most fetches waiting at once (SCOUT_FETCH_QUEUE): a memory ceiling, not the usual bound. */
  queue: number;
  /** The fetch deadline (SCOUT_FETCH_TIMEOUT_MS); time in line is spent from it. */
  timeoutMs: number;
  bytes?: ByteBudget;
  /** Monotonic milliseconds; default performance.now. */
  now?: () => number;
}

export interface CapacityLimitedFetchService extends FetchService {
  /** Fetches running now. */
  readonly active: number;
  /** Fetches waiting in line now. */
  readonly queued: number;
}

export function withFetchCapacity(inner: FetchService, options: FetchCapacityOptions): CapacityLimitedFetchService {
  const slots = createFairSlots(options.concurrency, options.queue);
  const now = options.now ?? (() => performance.now());
  const latestStartMs = options.timeoutMs * LATEST_START;
  // Deadlines of the running fetches: each frees its slot by then at the latest.
  const runningUntil = new Set<{ endsAt: number }>();

  /** Seconds until a running fetch is sure to have ended, so a slot (and a place in line) is free. */
  const retryAfterS = (): number => {
    let soonest = Number.POSITIVE_INFINITY;
    for (const r of runningUntil) soonest = Math.min(soonest, r.endsAt);
    const ms = Number.isFinite(soonest) ? soonest - now() : 1000;
    return Math.max(1, Math.ceil(ms / 1000));
  };

  const refusedFull = (): DomainError => {
    const retry = retryAfterS();
    return new DomainError(
      'unavailable',
      `fetch capacity is exhausted: ${options.concurrency} fetches are running and ${options.queue} waiting, the most this server holds, and this caller already has as many waiting as any other: send fewer fetches at once; retry in ${retry} s`,
      { retryAfterS: retry },
    );
  };

  const refusedPushedOut = (): DomainError => {
    const retry = retryAfterS();
    return new DomainError(
      'unavailable',
      `fetch capacity is exhausted: ${options.queue} fetches are waiting, the most this server holds, and this caller had the most of them, so its latest gave its place to another caller's: send fewer fetches at once; retry in ${retry} s`,
      { retryAfterS: retry },
    );
  };

  const refusedLate = (): DomainError => {
    const retry = retryAfterS();
    return new DomainError(
      'unavailable',
      `fetch capacity stayed exhausted: this fetch waited ${inSeconds(latestStartMs)} (half its ${inSeconds(options.timeoutMs)} deadline) for one of the ${options.concurrency} fetch slots, so the page was not requested; retry in ${retry} s`,
      { retryAfterS: retry },
    );
  };

  /** Aborts with `reason` after `ms`, or when the caller gives up; `done` clears both. */
  const timeLimit = (ms: number, reason: () => unknown, caller: AbortSignal | undefined) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(reason()), ms);
    const onCallerAbort = () => controller.abort(caller?.reason);
    if (caller?.aborted === true) onCallerAbort();
    else caller?.addEventListener('abort', onCallerAbort, { once: true });
    return {
      signal: controller.signal,
      done: () => {
        clearTimeout(timer);
        caller?.removeEventListener('abort', onCallerAbort);
      },
    };
  };

  async function waitForSlot(who: string, caller: AbortSignal | undefined): Promise<() => void> {
    const line = timeLimit(
      latestStartMs,
      () => new DomainError('unavailable', 'waited too long for a fetch slot'),
      caller,
    );
    try {
      const waiting = slots.acquire(who, line.signal);
      if (waiting === undefined) throw refusedFull();
      return await waiting.catch((reason: unknown) => {
        if (reason === PUSHED_OUT) throw refusedPushedOut();
        throw caller?.aborted === true ? cancelled(caller) : refusedLate();
      });
    } finally {
      line.done();
    }
  }

  return {
    async fetch(req) {
      const caller = req.signal;
      if (caller?.aborted) throw cancelled(caller);
      const running = { endsAt: now() + options.timeoutMs };
      const release = await waitForSlot(req.caller ?? '', caller);
      // The rest of the deadline: the service's own timer is the full timeoutMs from now,
      // this signal makes it end at the deadline counted from arrival.
      const run = timeLimit(
        Math.max(0, running.endsAt - now()),
        () => new DomainError('timeout', `fetching the page took longer than ${inSeconds(options.timeoutMs)}`),
        caller,
      );
      runningUntil.add(running);
      const account = options.bytes?.open();
      try {
        const work = () => inner.fetch({ ...req, signal: run.signal });
        return await (account === undefined ? work() : runWithByteAccount(account, work));
      } finally {
        account?.close();
        runningUntil.delete(running);
        run.done();
        release();
      }
    },
    close: () => inner.close(),
    get active() {
      return slots.active;
    },
    get queued() {
      return slots.queued;
    },
  };
}

/** A caller that gave up while its fetch waited in line: ends as a timeout, like a cancelled fetch (fetch-service.ts). */
const cancelled = (signal: AbortSignal): DomainError =>
  signal.reason instanceof DomainError
    ? signal.reason
    : new DomainError('timeout', 'the fetch was cancelled before it started');
