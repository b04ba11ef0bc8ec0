import { must } from '../../domain/must.ts';
import { K1_PLUS_1 } from './bm25.ts';
import { BLOCK, rowG, rowLast, type PostingStore } from './posting-store.ts';
import type { SpillFile } from './spill-file.ts';
import { VarintReader } from './varint.ts';

const OPEN_BLOCK = "a term's open block";

/** A cursor's slot once its postings are used up. */
export const END = 0x7fffffff;

/**
 * Bounds are computed with the same operations as the scores they bound, but a sum of
 * doubles in another order can differ in its last bits: every bound is raised by this
 * factor, so a document is skipped only when it certainly ranks below the cut.
 */
export const BOUND_SLACK = 1 + 1e-9;

/**
 * Walks one term's postings in slot order, a block at a time: next(), advance(target)
 * (whole blocks whose last slot is below the target are skipped from the block table,
 * without reading them), and for the posting it stands on the weighted frequency and,
 * decoded on demand, the positions. Counts the postings it decoded (`decoded`), so a
 * benchmark can tell how much of the postings a search touched.
 *
 * Reads of the decoded block stay below #n (at most BLOCK, the arrays' length) and of the
 * positions below what #posStart records: their `?? 0` only satisfies the type, is never
 * taken and costs nothing in these hot loops.
 */
export class TermCursor {
  slot = END;
  decoded = 0;
  readonly #store: PostingStore;
  readonly #t: number;
  readonly #file: SpillFile | undefined;
  /** Current block (== blocks for the open one) and place in it. */
  #b = -1;
  #i = 0;
  #n = 0;
  readonly #slots = new Int32Array(BLOCK);
  readonly #wfs = new Int32Array(BLOCK);
  readonly #counts = new Int32Array(BLOCK);
  /** Positions of the block, decoded on demand: posting i's are pos[posStart[i], posStart[i + 1]). */
  #pos = new Int32Array(256);
  readonly #posStart = new Int32Array(BLOCK + 1);
  #posReady = false;
  #bytes: Uint8Array = new Uint8Array(0);
  #posAt = 0;
  readonly #spare = { bytes: new Uint8Array(0) };
  readonly #reader = new VarintReader();

  constructor(store: PostingStore, t: number, file: SpillFile | undefined) {
    this.#store = store;
    this.#t = t;
    this.#file = file;
    this.#load(0);
  }

  /** The weighted frequency of the current posting. */
  get wf(): number {
    return this.#wfs[this.#i] ?? 0;
  }

  next(): void {
    if (++this.#i < this.#n) {
      this.slot = this.#slots[this.#i] ?? 0;
      return;
    }
    this.#load(this.#b + 1);
  }

  /** Moves to the first posting at or after `target`. */
  advance(target: number): void {
    if (this.slot >= target) return;
    if (target > this.#lastOfBlock(this.#b)) {
      const store = this.#store;
      const t = this.#t;
      const blocks = store.blockCount(t);
      let b = this.#b + 1;
      if (b < blocks) {
        const table = store.tableOf(t);
        while (b < blocks && rowLast(table, b) < target) b++;
      }
      if (b >= blocks && store.lastSlot(t) < target) {
        this.slot = END;
        this.#b = blocks + 1;
        return;
      }
      this.#load(b);
    }
    const slots = this.#slots;
    let i = this.#i;
    while (i < this.#n && (slots[i] ?? 0) < target) i++;
    this.#i = i;
    this.slot = i < this.#n ? (slots[i] ?? 0) : END;
    if (this.slot === END) this.#load(this.#b + 1);
  }

  /**
   * Skips, from the current block on, every whole block in which no posting can add `need`
   * or more with IDF `w` (its block-max bounds them all: posting-store.ts), reading only
   * the block table; lands on the first block that can, or at END.
   */
  skipWeak(w: number, avgdl: number, need: number): void {
    const store = this.#store;
    const t = this.#t;
    const blocks = store.blockCount(t);
    // bm25() = IDF × (k1 + 1) × g: the g a block needs to matter.
    const gNeed = need / (w * K1_PLUS_1 * BOUND_SLACK);
    let b = this.#b;
    if (b >= blocks) {
      if (b === blocks && this.slot !== END && store.tailG(t, avgdl) < gNeed) {
        this.slot = END;
        this.#b = blocks + 1;
      }
      return;
    }
    const table = store.tableOf(t);
    if (rowG(table, b, avgdl) >= gNeed) return;
    b++;
    while (b < blocks && rowG(table, b, avgdl) < gNeed) b++;
    if (b === blocks && store.tailG(t, avgdl) < gNeed) {
      this.slot = END;
      this.#b = blocks + 1;
      return;
    }
    this.#load(b);
  }

  /** Positions of the current posting: into `out` from 0; returns how many. */
  positions(out: { pos: Int32Array; from: number; to: number }): void {
    if (!this.#posReady) this.#decodePositions();
    out.pos = this.#pos;
    out.from = this.#posStart[this.#i] ?? 0;
    out.to = this.#posStart[this.#i + 1] ?? 0;
  }

  #lastOfBlock(b: number): number {
    if (b < 0) return -1;
    return b < this.#store.blockCount(this.#t) ? this.#store.blockLast(this.#t, b) : this.#store.lastSlot(this.#t);
  }

  /** Decodes block b (the open block when b == blocks); past it the cursor is at END. */
  #load(b: number): void {
    const store = this.#store;
    const t = this.#t;
    const blocks = store.blockCount(t);
    // Postings of the open block (read when b is the open block).
    const tailN = b === blocks ? must(store.tailN[t], OPEN_BLOCK) : 0;
    this.#b = b;
    this.#i = 0;
    this.#posReady = false;
    const r = this.#reader;
    let base = b === 0 ? -1 : b <= blocks ? store.blockLast(t, b - 1) : 0;
    if (b < blocks) {
      const { bytes, start, docBytes } = store.blockBytes(t, b, this.#file, this.#spare);
      this.#bytes = bytes;
      this.#posAt = start + docBytes;
      r.reset(bytes, start);
      for (let i = 0; i < BLOCK; i++) {
        base += r.next();
        this.#slots[i] = base;
        this.#wfs[i] = r.next();
        this.#counts[i] = r.next();
      }
      this.#n = BLOCK;
    } else if (tailN > 0) {
      // The open block: postings whole, positions decoded now (it is at most one block).
      const n = tailN;
      r.reset(must(store.bytes[t], OPEN_BLOCK), must(store.tailStart[t], OPEN_BLOCK));
      let p = 0;
      for (let i = 0; i < n; i++) {
        base += r.next();
        this.#slots[i] = base;
        this.#wfs[i] = r.next();
        const count = r.next();
        this.#counts[i] = count;
        this.#posStart[i] = p;
        if (this.#pos.length < p + count) this.#growPos(p + count);
        let at = 0;
        for (let k = 0; k < count; k++) this.#pos[p++] = at += r.next();
      }
      this.#posStart[n] = p;
      this.#posReady = true;
      this.#n = n;
    } else {
      this.#n = 0;
      this.slot = END;
      return;
    }
    this.decoded += this.#n;
    this.slot = this.#slots[0] ?? 0;
  }

  #decodePositions(): void {
    const r = this.#reader;
    r.reset(this.#bytes, this.#posAt);
    let p = 0;
    for (let i = 0; i < this.#n; i++) {
      const count = this.#counts[i] ?? 0;
      this.#posStart[i] = p;
      if (this.#pos.length < p + count) this.#growPos(p + count);
      let at = 0;
      for (let k = 0; k < count; k++) this.#pos[p++] = at += r.next();
    }
    this.#posStart[this.#n] = p;
    this.#posReady = true;
  }

  #growPos(need: number): void {
    const pos = new Int32Array(need * 2);
    pos.set(this.#pos);
    this.#pos = pos;
  }
}
