/**
 * A counting semaphore with a bounded FIFO queue: at most `capacity` holders at once, at
 * most `queueMax` waiting behind them. The fetch capacity (whole fetches) and the per-host
 * gate (one hop to one host) are both built on it.
 *
 * Hand-written rather than p-limit & co. because waiting must be abortable (a queued fetch's
 * wait counts against its deadline) and a full queue must answer at once, not grow.
 */

/** Gives the slot back; calling it twice is harmless. */
export type Release = () => void;

export interface Slots {
  /**
   * A slot: at once when one is free, after waiting in line otherwise. `undefined` at once
   * when the queue is full too. Rejects with `signal.reason` when `signal` aborts first
   * (the waiter leaves the line).
   */
  acquire(signal?: AbortSignal): Promise<Release> | undefined;
  readonly active: number;
  readonly queued: number;
}

interface Waiter {
  grant(release: Release): void;
}

export function createSlots(capacity: number, queueMax: number): Slots {
  let active = 0;
  const line: Waiter[] = [];

  const releaser = (): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Hand the slot straight to the next in line, so a newcomer cannot overtake it.
      const next = line.shift();
      if (next) next.grant(releaser());
      else active -= 1;
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (active < capacity) {
        active += 1;
        return Promise.resolve(releaser());
      }
      if (line.length >= queueMax) return undefined;
      return new Promise<Release>((resolve, reject) => {
        const onAbort = () => {
          const i = line.indexOf(waiter);
          if (i >= 0) line.splice(i, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        line.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    get active() {
      return active;
    },
    get queued() {
      return line.length;
    },
  };
}
