import type { Release } from './slots.ts';

/**
 * Slots shared fairly between callers (API keys; anonymous addresses once they exist): at
 * most `capacity` holders at once, at most `lineMax` waiting behind them, and
 * - a freed slot goes to the waiting caller that holds the fewest slots (the earliest
 *   arrival among equals), so a caller with many fetches running or waiting cannot keep a
 *   newcomer behind all of them: the newcomer gets the next slot that frees;
 * - when the line is full, a newcomer whose caller waits less than the caller with the
 *   longest line takes the place of that caller's latest arrival, which is refused
 *   (`PUSHED_OUT`); so one caller filling the line cannot lock the others out of it.
 * Within one caller, first come, first served. Work-conserving: a caller alone may use every
 * slot.
 */

/** The reason a waiter is rejected with when a fairer newcomer took its place in a full line. */
export const PUSHED_OUT: unique symbol = Symbol('pushed out of the fetch line');

export interface FairSlots {
  /**
   * A slot for `caller`: at once when one is free, after waiting otherwise; `undefined` at
   * once when the line is full and `caller` already waits as long as anyone. Rejects with
   * `signal.reason` when `signal` aborts first, and with PUSHED_OUT when a fairer newcomer
   * takes its place.
   */
  acquire(caller: string, signal?: AbortSignal): Promise<Release> | undefined;
  readonly active: number;
  readonly queued: number;
}

interface Waiter {
  seq: number;
  grant(release: Release): void;
  reject(reason: unknown): void;
}

interface Caller {
  running: number;
  line: Waiter[];
}

export function createFairSlots(capacity: number, lineMax: number): FairSlots {
  let active = 0;
  let queued = 0;
  let seq = 0;
  // Callers with a slot held or a fetch waiting; dropped when they have neither.
  const callers = new Map<string, Caller>();

  const forget = (id: string, c: Caller) => {
    if (c.running === 0 && c.line.length === 0) callers.delete(id);
  };

  /** The next waiter to serve: its caller holds the fewest slots; among equals, the earliest. */
  const next = (): [string, Caller] | undefined => {
    let best: [string, Caller] | undefined;
    /** The sequence number of best's first waiter. */
    let bestSeq = 0;
    for (const entry of callers) {
      const c = entry[1];
      const first = c.line[0];
      if (first === undefined) continue;
      if (best === undefined || c.running < best[1].running || (c.running === best[1].running && first.seq < bestSeq)) {
        best = entry;
        bestSeq = first.seq;
      }
    }
    return best;
  };

  const releaser = (id: string, c: Caller): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      c.running -= 1;
      forget(id, c);
      // Hand the slot straight to the next waiter, so a newcomer cannot overtake it.
      const chosen = next();
      if (chosen === undefined) {
        active -= 1;
        return;
      }
      const [nextId, nextCaller] = chosen;
      const waiter = nextCaller.line.shift() as Waiter;
      queued -= 1;
      nextCaller.running += 1;
      waiter.grant(releaser(nextId, nextCaller));
    };
  };

  /** Room in a full line for `c`: the latest arrival of the longest line, if longer than c's. */
  const pushOutFor = (c: Caller): boolean => {
    let longest: [string, Caller] | undefined;
    for (const entry of callers)
      if (longest === undefined || entry[1].line.length > longest[1].line.length) longest = entry;
    if (longest === undefined || longest[1].line.length <= c.line.length) return false;
    const [id, victim] = longest;
    const waiter = victim.line.pop() as Waiter;
    queued -= 1;
    forget(id, victim);
    waiter.reject(PUSHED_OUT);
    return true;
  };

  return {
    acquire(id, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      let c = callers.get(id);
      if (c === undefined) {
        c = { running: 0, line: [] };
        callers.set(id, c);
      }
      const caller = c;
      if (active < capacity) {
        active += 1;
        caller.running += 1;
        return Promise.resolve(releaser(id, caller));
      }
      if (queued >= lineMax && !pushOutFor(caller)) {
        forget(id, caller);
        return undefined;
      }
      return new Promise<Release>((resolve, reject) => {
        const onAbort = () => {
          const i = caller.line.indexOf(waiter);
          if (i >= 0) {
            caller.line.splice(i, 1);
            queued -= 1;
            forget(id, caller);
          }
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          seq: (seq += 1),
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
          reject: (reason) => {
            signal?.removeEventListener('abort', onAbort);
            reject(reason);
          },
        };
        caller.line.push(waiter);
        queued += 1;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    get active() {
      return active;
    },
    get queued() {
      return queued;
    },
  };
}
