/**
 * Polite request scheduling for crawls: at most `maxInFlight` tasks run at once overall,
 * at most one per host, and a host's next task starts no sooner than its delay after the
 * previous one on that host ENDED (so start-to-start is longer still). Tasks for one host
 * run in the order they were handed in. A host's delay can only be raised (robots.txt
 * Crawl-delay), never lowered below the crawl's own.
 */

export interface HostPacerOptions {
  maxInFlight: number;
  delayMs: number;
  /** Monotonic milliseconds; default performance.now. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface HostPacer {
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
  /** Raises `host`'s delay to `delayMs` when that is longer than the current one. */
  slowDown(host: string, delayMs: number): void;
  /** True while a task for `host` is running or waiting. */
  busy(host: string): boolean;
}

interface HostState {
  tail: Promise<void>;
  pending: number;
  lastEnd: number;
  delayMs: number;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createHostPacer(options: HostPacerOptions): HostPacer {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? defaultSleep;
  const hosts = new Map<string, HostState>();
  let inFlight = 0;
  const waiting: Array<() => void> = [];

  const state = (host: string): HostState => {
    let s = hosts.get(host);
    if (s === undefined) {
      s = { tail: Promise.resolve(), pending: 0, lastEnd: Number.NEGATIVE_INFINITY, delayMs: options.delayMs };
      hosts.set(host, s);
    }
    return s;
  };

  async function acquire(): Promise<void> {
    // A loop, not a single wait: a caller arriving between release and wake-up may take the slot.
    while (inFlight >= options.maxInFlight) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight += 1;
  }

  const release = (): void => {
    inFlight -= 1;
    waiting.shift()?.();
  };

  async function waitForHost(s: HostState): Promise<void> {
    // Re-checked after each sleep: timers may fire a little early against `now`.
    for (let left = s.lastEnd + s.delayMs - now(); left > 0; left = s.lastEnd + s.delayMs - now()) {
      await sleep(Math.ceil(left));
    }
  }

  return {
    async run(host, task) {
      const s = state(host);
      const previous = s.tail;
      let done!: () => void;
      s.tail = new Promise<void>((resolve) => (done = resolve));
      s.pending += 1;
      try {
        await previous;
        await waitForHost(s);
        await acquire();
        try {
          return await task();
        } finally {
          s.lastEnd = now();
          release();
        }
      } finally {
        s.pending -= 1;
        done();
      }
    },
    slowDown(host, delayMs) {
      const s = state(host);
      s.delayMs = Math.max(s.delayMs, delayMs);
    },
    busy: (host) => (hosts.get(host)?.pending ?? 0) > 0,
  };
}
