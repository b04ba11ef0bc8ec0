import { END } from './term-cursor.ts';
import type { PhraseCursor } from './phrase-cursor.ts';

/** Phrase document frequencies remembered. */
const PHRASES_REMEMBERED = 20_000;

interface Known {
  hits: number;
  /** Slots counted: those below this. */
  slots: number;
  /** Removals seen: the first this many of the log. */
  removed: number;
}

/**
 * Live documents holding each phrase (FTS5 counts them for a phrase's IDF), remembered
 * across writes: a count made when the ranker had `slots` slots and had logged `removed`
 * removals is brought up to date by counting only the slots added since and checking only
 * the slots removed since (their postings stay until a compaction), so a trickle of writes
 * (a crawl) does not make every phrase count again from scratch. A compaction renumbers
 * slots: reset() forgets everything.
 */
export class PhraseCounts {
  readonly #known = new Map<string, Known>();
  /** Slots removed since the last reset, in order. */
  #removedSlots: number[] = [];
  /** Postings decoded by the last count (benchmarks). */
  decoded = 0;

  /** A slot was removed (its postings are still there to check). */
  removed(slot: number): void {
    this.#removedSlots.push(slot);
  }

  reset(): void {
    this.#known.clear();
    this.#removedSlots = [];
  }

  /**
   * The live documents holding the phrase among `slots` slots; `open` makes a cursor over
   * its instances that stops at the first of each document.
   */
  hits(phrase: readonly number[], slots: number, live: Uint8Array, open: () => PhraseCursor): number {
    const key = phrase.join(' ');
    const removed = this.#removedSlots.length;
    const known = this.#known.get(key);
    this.decoded = 0;
    if (known !== undefined && known.slots === slots && known.removed === removed) return known.hits;
    let hits = known?.hits ?? 0;
    // Documents added since: the live ones holding the phrase (all of them, the first time).
    const cursor = open();
    for (cursor.advance(known?.slots ?? 0); cursor.slot !== END; cursor.next()) if (live[cursor.slot] === 1) hits++;
    this.decoded += cursor.decoded;
    if (known !== undefined && known.removed < removed) {
      // Documents removed since that were counted: their postings are still there to check.
      const gone = this.#removedSlots
        .slice(known.removed)
        .filter((s) => s < known.slots)
        .sort((a, b) => a - b);
      const check = open();
      for (const s of gone) {
        check.advance(s);
        if (check.slot === s) hits--;
      }
      this.decoded += check.decoded;
    }
    // Bounded: distinct phrases of distinct queries would otherwise pile up.
    if (known === undefined && this.#known.size >= PHRASES_REMEMBERED) this.#known.clear();
    this.#known.set(key, { hits, slots, removed });
    return hits;
  }
}
