import { isRunChar, tokenize } from './tokenize.ts';

/** Runs remembered; cleared when full (as tokenize.ts bounds its own memory). */
const MAX_RUNS = 200_000;
/** Slots of a new table (a power of two); it doubles while at most half full. */
const FIRST_SLOTS = 1024;

/** FNV-1a's offset basis and prime, over UTF-16 code units. */
const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * Term ids of a text for the ranker's builds, the tokens tokenize() makes, faster: a text's
 * tokens are its runs' tokens one after another (tokenize.ts cuts runs and tokenizes each
 * on its own), so each distinct run is tokenized once and remembered with its term ids.
 * A document then costs one scan and one look-up per word, instead of a string per
 * token and a second look-up from term to id (the build's largest cost, measured).
 *
 * The look-up is an open-addressing table of the runs' hashes computed during the scan, the
 * run compared in place: a run already known costs no string. (A Map keyed by the run's
 * slice made a string per word and hashed it again: 38% of a build.) Only a run seen for
 * the first time is sliced out, to be tokenized and kept.
 */
export class RunIds {
  readonly #intern: (term: string) => number;
  readonly #maxRuns: number;
  /** Per slot: the run's hash (never 0), or 0 when empty. */
  #hashes = new Int32Array(FIRST_SLOTS);
  #runs: (string | undefined)[] = new Array(FIRST_SLOTS);
  #values: (number | readonly number[] | undefined)[] = new Array(FIRST_SLOTS);
  #size = 0;

  /** `intern`: the term's id, made when new. `maxRuns`: runs remembered before starting over. */
  constructor(intern: (term: string) => number, maxRuns = MAX_RUNS) {
    this.#intern = intern;
    this.#maxRuns = maxRuns;
  }

  /** Runs remembered now. */
  get size(): number {
    return this.#size;
  }

  /** Appends the term ids of `text`'s tokens to `out`; returns how many. */
  ids(text: string, out: number[]): number {
    const before = out.length;
    const n = text.length;
    let i = 0;
    while (i < n) {
      while (i < n && !isRunChar(text.charCodeAt(i))) i++;
      if (i >= n) break;
      const from = i;
      let h = FNV_BASIS;
      for (let c = text.charCodeAt(i); i < n && isRunChar(c); c = text.charCodeAt(++i)) h = Math.imul(h ^ c, FNV_PRIME);
      if (h === 0) h = 1;
      const known = this.#find(text, from, i, h) ?? this.#learn(text.slice(from, i), h);
      if (typeof known === 'number') out.push(known);
      else for (const id of known) out.push(id);
    }
    return out.length - before;
  }

  /** The ids of the run text[from, to) with hash `h`, or undefined when it is not remembered. */
  #find(text: string, from: number, to: number, h: number): number | readonly number[] | undefined {
    const mask = this.#hashes.length - 1;
    const len = to - from;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const sh = this.#hashes[slot];
      if (sh === 0 || sh === undefined) return undefined;
      if (sh !== h) continue;
      const run = this.#runs[slot];
      if (run === undefined || run.length !== len) continue;
      let k = 0;
      while (k < len && run.charCodeAt(k) === text.charCodeAt(from + k)) k++;
      if (k === len) return this.#values[slot];
    }
  }

  /** Tokenizes a new run and remembers its ids under hash `h`. */
  #learn(run: string, h: number): number | readonly number[] {
    const terms = tokenize(run).map((t) => this.#intern(t));
    const [only] = terms;
    const ids = terms.length === 1 && only !== undefined ? only : terms;
    if (this.#size >= this.#maxRuns) this.#reset(FIRST_SLOTS);
    else if (2 * (this.#size + 1) > this.#hashes.length) this.#grow();
    this.#put(run, h, ids);
    return ids;
  }

  #put(run: string, h: number, ids: number | readonly number[]): void {
    const mask = this.#hashes.length - 1;
    let slot = h & mask;
    while (this.#hashes[slot] !== 0) slot = (slot + 1) & mask;
    this.#hashes[slot] = h;
    this.#runs[slot] = run;
    this.#values[slot] = ids;
    this.#size++;
  }

  #reset(slots: number): void {
    this.#hashes = new Int32Array(slots);
    this.#runs = new Array(slots);
    this.#values = new Array(slots);
    this.#size = 0;
  }

  #grow(): void {
    const hashes = this.#hashes;
    const runs = this.#runs;
    const values = this.#values;
    this.#reset(hashes.length * 2);
    for (let slot = 0; slot < hashes.length; slot++) {
      const h = hashes[slot];
      const run = runs[slot];
      const ids = values[slot];
      if (h !== undefined && h !== 0 && run !== undefined && ids !== undefined) this.#put(run, h, ids);
    }
  }
}
