import type { Pacing } from './provider.ts';

/**
 * Paces the calls to one engine: starts at least 1/perSecond apart, at most `inFlight`
 * running, the rest waiting in arrival order. A caller waits only as long as it was told it
 * may (what is left of its time limit); one that cannot start in time is refused at once, or
 * as soon as its wait runs out, so an agent's burst of parallel searches queues instead of
 * tripping the engine's bot check, and no caller waits past its deadline. The clock and the
 * timer are injected for tests. Per process: N replicas allow N times the rate
 * (docs/providers.md).
 */

export interface PacerClock {
  now(): number;
  setTimer(fn: () => void, ms: number): { cancel(): void };
}

const REAL_CLOCK: PacerClock = {
  now: () => performance.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

/** Why a caller did not get a turn. */
export class PacerRefusal extends Error {
  constructor(
    message: string,
    /** True when the caller's own signal was aborted (not a refusal of the pacer's). */
    readonly aborted: boolean,
  ) {
    super(message);
    this.name = 'PacerRefusal';
  }
}

interface Waiter {
  resolve(release: () => void): void;
  reject(e: PacerRefusal): void;
  expiry?: { cancel(): void };
}

export class Pacer {
  readonly intervalMs: number;
  private readonly inFlight: number;
  private running = 0;
  /** The earliest time the next call may start. */
  private nextStart = Number.NEGATIVE_INFINITY;
  private readonly queue: Waiter[] = [];
  private wake: { cancel(): void } | undefined;

  constructor(
    pacing: Pacing,
    private readonly clock: PacerClock = REAL_CLOCK,
  ) {
    if (!(pacing.perSecond > 0) || !(pacing.inFlight >= 1))
      throw new RangeError('pacing needs perSecond > 0 and inFlight >= 1');
    this.intervalMs = 1000 / pacing.perSecond;
    this.inFlight = Math.floor(pacing.inFlight);
  }

  /** Callers waiting for a turn. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Waits for a turn, at most `maxWaitMs`; resolves with the function that ends the call
   * (call it once, when the upstream answered or failed).
   */
  acquire(maxWaitMs: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new PacerRefusal('cancelled while waiting for its turn', true));
    // The earliest this caller could start if every running call ended now: later than its
    // time limit means waiting would only end in a timeout.
    const now = this.clock.now();
    const earliest = Math.max(now, this.nextStart + this.queue.length * this.intervalMs);
    if (earliest - now > maxWaitMs) return Promise.reject(this.full(now));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      const leave = (e: PacerRefusal) => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        waiter.expiry?.cancel();
        signal?.removeEventListener('abort', onAbort);
        reject(e);
        this.pump();
      };
      const onAbort = () => leave(new PacerRefusal('cancelled while waiting for its turn', true));
      waiter.resolve = (release) => {
        waiter.expiry?.cancel();
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A turn due at the very moment the wait runs out is taken, not refused: start whoever
      // may start first, then drop this caller if it is still waiting.
      waiter.expiry = this.clock.setTimer(
        () => {
          this.pump();
          leave(this.full(this.clock.now()));
        },
        Math.max(0, maxWaitMs),
      );
      this.pump();
    });
  }

  private full(now: number): PacerRefusal {
    const ahead = this.queue.length + this.running;
    const wait = Math.max(0, Math.ceil(this.nextStart + this.queue.length * this.intervalMs - now));
    return new PacerRefusal(`paced: ${ahead} calls ahead, next turn in ${wait} ms, past the time limit`, false);
  }

  /** Starts every waiter whose turn has come; sets one timer for the next turn. */
  private pump(): void {
    while (this.queue.length > 0 && this.running < this.inFlight) {
      const now = this.clock.now();
      if (now < this.nextStart) {
        if (!this.wake) {
          this.wake = this.clock.setTimer(() => {
            this.wake = undefined;
            this.pump();
          }, this.nextStart - now);
        }
        return;
      }
      const waiter = this.queue.shift();
      if (!waiter) return;
      this.running += 1;
      this.nextStart = now + this.intervalMs;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.running -= 1;
        this.pump();
      });
    }
  }
}
