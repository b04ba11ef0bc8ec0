import { frontierKey } from './frontier-url.ts';

/**
 * The crawl's queue: first in, first out (breadth-first), each URL at most once. `next`
 * prefers the oldest URL whose host is idle, so a second worker does not sit behind the
 * first one's per-host delay while other hosts wait; among one host the order stays FIFO.
 */

export interface FrontierEntry {
  url: string;
  host: string;
}

/** How far `next` looks past the head for an idle host: bounded so a big queue stays cheap. */
const LOOKAHEAD = 256;

export class Frontier {
  readonly #queue: FrontierEntry[] = [];
  readonly #seen = new Set<string>();
  readonly #capacity: number;

  /** `capacity`: URLs held at most; links found past it are dropped (memory bound on huge sites). */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#queue.length;
  }

  /** Queues `url` unless it was seen before or the queue is full; true when queued. */
  add(url: string): boolean {
    const key = frontierKey(url);
    if (this.#seen.has(key) || this.#queue.length >= this.#capacity) return false;
    this.#seen.add(key);
    this.#queue.push({ url, host: new URL(url).hostname });
    return true;
  }

  /** Whether `url` was queued or marked seen before. */
  seen(url: string): boolean {
    return this.#seen.has(frontierKey(url));
  }

  /** Marks `url` as seen without queueing it (a redirect's target, already fetched). */
  markSeen(url: string): void {
    this.#seen.add(frontierKey(url));
  }

  /** The queue's URLs in order, and the keys of every URL queued or seen: what restore() takes. */
  snapshot(): { queue: string[]; seen: string[] } {
    return { queue: this.#queue.map((e) => e.url), seen: [...this.#seen] };
  }

  /** Takes back a snapshot's seen keys, then queues `queue` in order (URLs already seen included). */
  restore(seen: readonly string[], queue: readonly string[]): void {
    for (const url of queue) {
      if (this.#queue.length >= this.#capacity) break;
      this.#seen.add(frontierKey(url));
      this.#queue.push({ url, host: new URL(url).hostname });
    }
    for (const key of seen) this.#seen.add(key);
  }

  /** The oldest entry whose host is not `busy`, else the oldest entry; undefined when empty. */
  next(busy: (host: string) => boolean): FrontierEntry | undefined {
    for (const [i, entry] of this.#queue.entries()) {
      if (i >= LOOKAHEAD) break;
      if (!busy(entry.host)) return this.#queue.splice(i, 1)[0];
    }
    return this.#queue.shift();
  }
}
