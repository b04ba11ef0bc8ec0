import { internalError, must } from '../../domain/must.ts';
import { lengthNorm } from './bm25.ts';
import type { SpillFile } from './spill-file.ts';
import { putVarint, VarintReader } from './varint.ts';

/**
 * The postings of every term, compact: per term one byte array of variable-byte integers,
 * cut into blocks of BLOCK postings. A sealed block is
 *   [slot gap, weighted frequency, count] × BLOCK, then each posting's positions as gaps,
 * so scoring decodes the first part only and a phrase check decodes positions of the blocks
 * it lands in. The last, open block keeps each posting whole ([gap, weight, count,
 * positions…]) and is reordered when it fills. Per sealed block the table keeps its last
 * slot (to skip it without decoding), its byte range, and the largest weighted frequency
 * and smallest document length in it: bm25() rises with the first and falls with the
 * second, so together they bound every score in the block whatever the collection's
 * statistics are when a search runs (no bound goes stale as documents come and go).
 *
 * Per term the numbers live in typed arrays indexed by term id, so a rare term (most terms)
 * costs a few bytes of postings and one small array. Sealed blocks can be moved to a
 * SpillFile (spill()) when the memory budget is spent; their table rows stay in memory.
 *
 * Term ids are below `terms` (addTerms() sizes every per-term array first), and a term's
 * table holds a row for each of its sealed blocks: a read outside them is a broken
 * invariant (must()). In the loops over a block's bytes, whose indexes stay inside what was
 * written, a read's `?? 0` only satisfies the type and is never taken.
 */
export const BLOCK = 128;

/** Fields of one sealed block's row in a term's block table. */
const B_LAST = 0;
const B_START = 1;
const B_DOC_BYTES = 2;
const B_BYTES = 3;
/** Offset in the spill file, or -1 while the block is in the term's byte array (at B_START). */
const B_FILE = 4;
/** Block-max g and the mean document length it was taken at. */
const B_MAX_G = 5;
const B_AVGDL = 6;
export const BLOCK_FIELDS = 7;

/** What must() names when a per-term array has no place for a term id. */
const TERM = "a term id's entry";
const BLOCK_ROW = "a sealed block's table row";
const unknownTerm = (t: number): Error => internalError(`term id ${t} is past the posting store's terms`);
const noBlock = (t: number, b: number): Error => internalError(`term ${t} has no sealed block ${b}`);

/**
 * Sealed block b's last slot and its bound on g at mean length `avgdl`, read from its term's
 * table (PostingStore.tableOf) by a cursor's block-skipping loops, the innermost of a search:
 * b is below the term's sealed blocks there, so the `?? 0` only satisfies the type and is
 * never taken.
 */
export const rowLast = (table: Float64Array, b: number): number => table[b * BLOCK_FIELDS + B_LAST] ?? 0;
export function rowG(table: Float64Array, b: number, avgdl: number): number {
  const row = b * BLOCK_FIELDS;
  return (table[row + B_MAX_G] ?? 0) * Math.max(1, avgdl / (table[row + B_AVGDL] ?? 0));
}

/** g = f / (f + norm): a posting's bm25() over IDF × (k1 + 1). */
export const gOf = (wf: number, len: number, avgdl: number): number => wf / (wf + lengthNorm(len, avgdl));

/** Rough heap cost of one typed array beyond its bytes (object + backing store header). */
const ARRAY_OVERHEAD = 160;

function grown<T extends Int32Array | Float64Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  const b = make(Math.max(need, Math.ceil(a.length * 1.5), 1024));
  b.set(a);
  return b;
}

export class PostingStore {
  /** Live documents holding the term. */
  df: Int32Array = new Int32Array(0);
  /** Last slot appended (-1 before any). */
  last: Int32Array = new Int32Array(0);
  /** The open block: postings, start in the byte array, bounds. */
  tailN: Int32Array = new Int32Array(0);
  tailStart: Int32Array = new Int32Array(0);
  tailMaxWf: Int32Array = new Int32Array(0);
  tailMinLen: Int32Array = new Int32Array(0);
  /** Used bytes of each term's array. */
  used: Int32Array = new Int32Array(0);
  blocks: Int32Array = new Int32Array(0);
  bytes: (Uint8Array | undefined)[] = [];
  table: (Float64Array | undefined)[] = [];
  #terms = 0;
  #heapBytes = 0;
  #spilledBytes = 0;
  /** Per term: the largest block-max g, and the largest g / a0, over its sealed blocks. */
  maxG: Float64Array = new Float64Array(0);
  maxGPerMean: Float64Array = new Float64Array(0);
  #scratch: Uint8Array = new Uint8Array(4096);
  readonly #reader = new VarintReader();
  readonly #lens: () => Int32Array;

  /** `lens`: each slot's token count (the document table's, read when a block seals). */
  constructor(lens: () => Int32Array) {
    this.#lens = lens;
  }

  get terms(): number {
    return this.#terms;
  }

  /** Bytes of postings and tables held in memory (an estimate of their heap cost). */
  get heapBytes(): number {
    return this.#heapBytes + this.#terms * (8 * 4 + 2 * 8);
  }

  /** Bytes of postings moved to the spill file. */
  get spilledBytes(): number {
    return this.#spilledBytes;
  }

  /** Makes room for term ids below `n`. */
  addTerms(n: number): void {
    if (n <= this.#terms) return;
    const i32 = (a: Int32Array, fill = 0): Int32Array => {
      const b = grown(a, n, (k) => new Int32Array(k));
      if (fill !== 0 && b !== a) b.fill(fill, a.length);
      return b;
    };
    this.df = i32(this.df);
    this.last = i32(this.last, -1);
    this.tailN = i32(this.tailN);
    this.tailStart = i32(this.tailStart);
    this.tailMaxWf = i32(this.tailMaxWf);
    this.tailMinLen = i32(this.tailMinLen, 0x7fffffff);
    this.used = i32(this.used);
    this.blocks = i32(this.blocks);
    this.maxG = grown(this.maxG, n, (k) => new Float64Array(k));
    this.maxGPerMean = grown(this.maxGPerMean, n, (k) => new Float64Array(k));
    this.#terms = n;
  }

  /**
   * Appends a posting of `slot` (above the term's last) with its column-weighted frequency,
   * its document's length and its positions pos[from, to) (ascending); `avgdl` is the
   * collection's mean length now (a block sealed by this append takes its bound at it).
   */
  append(
    t: number,
    slot: number,
    wf: number,
    len: number,
    pos: ArrayLike<number>,
    from: number,
    to: number,
    avgdl: number,
  ): void {
    const count = to - from;
    // Room for the worst case (5 bytes a number): one pass writes, none measures.
    const bytes = this.#room(t, 5 * (3 + count));
    let at = putVarint(bytes, must(this.used[t], TERM), slot - must(this.last[t], TERM));
    at = putVarint(bytes, at, wf);
    at = putVarint(bytes, at, count);
    let prev = 0;
    for (let k = from; k < to; k++) {
      // k < to ≤ pos.length (the caller's run).
      const p = pos[k] ?? 0;
      at = putVarint(bytes, at, p - prev);
      prev = p;
    }
    this.used[t] = at;
    this.last[t] = slot;
    this.df[t] = must(this.df[t], TERM) + 1;
    if (wf > must(this.tailMaxWf[t], TERM)) this.tailMaxWf[t] = wf;
    if (len < must(this.tailMinLen[t], TERM)) this.tailMinLen[t] = len;
    const n = must(this.tailN[t], TERM) + 1;
    this.tailN[t] = n;
    if (n === BLOCK) this.#seal(t, avgdl);
  }

  /** The term's byte array with `need` more bytes of room. */
  #room(t: number, need: number): Uint8Array {
    const old = this.bytes[t];
    const used = must(this.used[t], TERM);
    if (old !== undefined && used + need <= old.length) return old;
    const size = Math.max(16, used + need, Math.ceil((old?.length ?? 0) * 1.5));
    const b = new Uint8Array(size);
    if (old !== undefined) b.set(old.subarray(0, used));
    this.#heapBytes += size - (old?.length ?? -ARRAY_OVERHEAD);
    this.bytes[t] = b;
    return b;
  }

  /** Reorders the full open block into a sealed one and adds its table row. */
  #seal(t: number, avgdl: number): void {
    const bytes = must(this.bytes[t], "a sealing term's bytes");
    const start = must(this.tailStart[t], TERM);
    const end = must(this.used[t], TERM);
    if (this.#scratch.length < end - start) this.#scratch = new Uint8Array((end - start) * 2);
    const out = this.#scratch;
    const lens = this.#lens();
    const b = must(this.blocks[t], TERM);
    let slot = b === 0 ? -1 : this.blockLast(t, b - 1);
    let maxG = 0;
    // First pass: the (gap, weight, count) triples; second: the position runs.
    const r = this.#reader;
    r.reset(bytes, start);
    let w = 0;
    for (let i = 0; i < BLOCK; i++) {
      let from = r.at;
      slot += r.next();
      const g = gOf(r.next(), lens[slot] ?? 0, avgdl);
      if (g > maxG) maxG = g;
      const count = r.next();
      while (from < r.at) out[w++] = bytes[from++] ?? 0;
      for (let k = 0; k < count; k++) r.next();
    }
    const docBytes = w;
    r.reset(bytes, start);
    for (let i = 0; i < BLOCK; i++) {
      r.next();
      r.next();
      const count = r.next();
      let from = r.at;
      for (let k = 0; k < count; k++) r.next();
      while (from < r.at) out[w++] = bytes[from++] ?? 0;
    }
    bytes.set(out.subarray(0, w), start);
    let table = this.table[t];
    if (table === undefined || table.length < (b + 1) * BLOCK_FIELDS) {
      const bigger = new Float64Array(Math.max(4, b * 2) * BLOCK_FIELDS);
      if (table !== undefined) bigger.set(table.subarray(0, b * BLOCK_FIELDS));
      this.#heapBytes += bigger.byteLength - (table?.byteLength ?? -ARRAY_OVERHEAD);
      this.table[t] = table = bigger;
    }
    const row = b * BLOCK_FIELDS;
    table[row + B_LAST] = must(this.last[t], TERM);
    table[row + B_START] = start;
    table[row + B_DOC_BYTES] = docBytes;
    table[row + B_BYTES] = end - start;
    table[row + B_FILE] = -1;
    table[row + B_MAX_G] = maxG;
    table[row + B_AVGDL] = avgdl;
    if (maxG > must(this.maxG[t], TERM)) this.maxG[t] = maxG;
    if (maxG / avgdl > must(this.maxGPerMean[t], TERM)) this.maxGPerMean[t] = maxG / avgdl;
    this.blocks[t] = b + 1;
    this.tailN[t] = 0;
    this.tailStart[t] = end;
    this.tailMaxWf[t] = 0;
    this.tailMinLen[t] = 0x7fffffff;
  }

  /**
   * Moves every sealed block still in memory to `file`, keeping only the open blocks in
   * memory; returns the bytes freed. Terms are written one after another, so a term's
   * blocks of one spill sit together in the file.
   */
  spill(file: SpillFile): number {
    let freed = 0;
    for (let t = 0; t < this.#terms; t++) {
      const bytes = this.bytes[t];
      const tail = must(this.tailStart[t], TERM);
      if (bytes === undefined || tail === 0) continue;
      const base = file.append(bytes, 0, tail);
      const table = this.#table(t);
      const blocks = must(this.blocks[t], TERM);
      for (let b = 0; b < blocks; b++) {
        const row = b * BLOCK_FIELDS;
        if (table[row + B_FILE] !== -1) continue;
        table[row + B_FILE] = base + must(table[row + B_START], BLOCK_ROW);
        table[row + B_START] = -1;
      }
      const used = must(this.used[t], TERM) - tail;
      const kept = new Uint8Array(Math.max(16, used));
      kept.set(bytes.subarray(tail, tail + used));
      this.bytes[t] = kept;
      this.used[t] = used;
      this.tailStart[t] = 0;
      freed += bytes.length - kept.length;
      this.#spilledBytes += tail;
    }
    this.#heapBytes -= freed;
    return freed;
  }

  /**
   * Gives back the room arrays grew into (they grow by half again when full, so a third of
   * a term's bytes can be spare): each is cut to its used bytes plus a little. Worth it once
   * a bulk of postings is in (a build's end); appends after it grow them again.
   */
  trim(): void {
    for (let t = 0; t < this.#terms; t++) {
      const bytes = this.bytes[t];
      const keep = must(this.used[t], TERM) + 8;
      if (bytes === undefined || bytes.length <= keep + (keep >> 4)) continue;
      this.bytes[t] = bytes.slice(0, keep);
      this.#heapBytes -= bytes.length - keep;
      const table = this.table[t];
      const rows = must(this.blocks[t], TERM) * BLOCK_FIELDS;
      if (table !== undefined && table.length > rows + BLOCK_FIELDS) {
        this.table[t] = table.slice(0, rows + BLOCK_FIELDS);
        this.#heapBytes -= (table.length - rows - BLOCK_FIELDS) * 8;
      }
    }
  }

  /** Live documents holding term t. */
  docCount(t: number): number {
    return must(this.df[t], TERM);
  }

  // The reads a search makes per candidate (cursors' advance and skipWeak) check inline, with
  // no call but on the throw; their loops over blocks read the table by rowLast and rowG.

  /** Sealed blocks of term t. */
  blockCount(t: number): number {
    const n = this.blocks[t];
    if (n === undefined) throw unknownTerm(t);
    return n;
  }

  /** The last slot appended to term t (-1 before any). */
  lastSlot(t: number): number {
    const slot = this.last[t];
    if (slot === undefined) throw unknownTerm(t);
    return slot;
  }

  /** Term t's block table (a term with sealed blocks has one), for rowLast and rowG. */
  tableOf(t: number): Float64Array {
    const table = this.table[t];
    if (table === undefined) throw noBlock(t, 0);
    return table;
  }

  /** Where a term's sealed block b is: its row in the term's table. */
  blockLast(t: number, b: number): number {
    const last = this.table[t]?.[b * BLOCK_FIELDS + B_LAST];
    if (last === undefined) throw noBlock(t, b);
    return last;
  }

  /** No posting of the open block has a larger g (largest weight at shortest length). */
  tailG(t: number, avgdl: number): number {
    if (this.tailN[t] === 0) return 0;
    const wf = this.tailMaxWf[t];
    const len = this.tailMinLen[t];
    if (wf === undefined || len === undefined) throw unknownTerm(t);
    return gOf(wf, len, avgdl);
  }

  /** No posting of the term has a larger g at mean length `avgdl`. */
  termG(t: number, avgdl: number): number {
    return Math.max(must(this.maxG[t], TERM), avgdl * must(this.maxGPerMean[t], TERM), this.tailG(t, avgdl));
  }

  /**
   * The bytes of sealed block b and where it starts in them: the term's array, or `spare`
   * (grown as needed and handed back) filled from the spill file.
   */
  blockBytes(
    t: number,
    b: number,
    file: SpillFile | undefined,
    spare: { bytes: Uint8Array },
  ): { bytes: Uint8Array; start: number; docBytes: number } {
    const table = this.#table(t);
    const row = b * BLOCK_FIELDS;
    const docBytes = must(table[row + B_DOC_BYTES], BLOCK_ROW);
    const at = must(table[row + B_FILE], BLOCK_ROW);
    if (at === -1) {
      return {
        bytes: must(this.bytes[t], "a sealed block's term bytes"),
        start: must(table[row + B_START], BLOCK_ROW),
        docBytes,
      };
    }
    const length = must(table[row + B_BYTES], BLOCK_ROW);
    if (spare.bytes.length < length) spare.bytes = new Uint8Array(length * 2);
    must(file, 'the spill file of a spilled block').read(at, length, spare.bytes);
    return { bytes: spare.bytes, start: 0, docBytes };
  }

  /** The block table of a term that has sealed blocks. */
  #table(t: number): Float64Array {
    return must(this.table[t], "a term's block table");
  }
}
