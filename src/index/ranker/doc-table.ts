import { must } from '../../domain/must.ts';
import type { Filterable } from './slot-filter.ts';
import { putVarint, varintSize, VarintReader } from './varint.ts';

/** What must() names when a per-slot array has no place for a slot. */
const SLOT = "a slot's entry";

/** Strings seen often (domains, days, countries) kept once, by number. */
class Interner {
  readonly #ids = new Map<string, number>();
  readonly names: string[] = [];
  #chars = 0;

  id(name: string | null): number {
    if (name === null) return -1;
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.names.push(name) - 1;
      this.#ids.set(name, id);
      this.#chars += name.length;
    }
    return id;
  }

  name(id: number): string | null {
    return id < 0 ? null : must(this.names[id], 'an interned name');
  }

  /** Rough heap cost: map entry + string per name. */
  get bytes(): number {
    return this.names.length * 96 + this.#chars * 2;
  }
}

/** What the ranker keeps of a document when it keeps texts (a follower of a shared store). */
export interface DocText {
  url: string;
  title: string;
  content: string;
  publishedDate: string | null;
}

/**
 * Per slot (a document's place in the ranker, in arrival order): its id, token counts, live
 * flag, the filter fields as numbers, its distinct term ids (variable-byte gaps in one shared
 * byte pool, so removing it can lower those terms' document frequencies) and, when kept,
 * its shown text. A slot below `slots` has a place in every per-slot array: a read that
 * finds none is a broken invariant (must()).
 */
export class DocTable {
  ids: Float64Array = new Float64Array(0);
  lens: Int32Array = new Int32Array(0);
  titleLens: Int32Array = new Int32Array(0);
  live: Uint8Array = new Uint8Array(0);
  #domain: Int32Array = new Int32Array(0);
  #day: Int32Array = new Int32Array(0);
  #country: Int32Array = new Int32Array(0);
  #termsAt: Float64Array = new Float64Array(0);
  #pool: Uint8Array = new Uint8Array(1 << 16);
  #poolUsed = 0;
  /** Slots in use (live or not). */
  slots = 0;
  readonly #domains = new Interner();
  readonly #days = new Interner();
  readonly #countries = new Interner();
  readonly #texts: (DocText | undefined)[] | undefined;
  #textChars = 0;
  readonly #reader = new VarintReader();

  constructor(keepTexts: boolean) {
    this.#texts = keepTexts ? [] : undefined;
  }

  /** Appends a document; returns its slot. `terms`: its distinct term ids, ascending. */
  push(
    doc: { id: number; domain: string; day: string | null; country: string | null } & DocText,
    len: number,
    titleLen: number,
    terms: ArrayLike<number>,
  ): number {
    const slot = this.slots++;
    if (slot >= this.ids.length) this.#grow(Math.max(1024, Math.ceil(this.ids.length * 1.5)));
    this.ids[slot] = doc.id;
    this.lens[slot] = len;
    this.titleLens[slot] = titleLen;
    this.live[slot] = 1;
    this.#domain[slot] = this.#domains.id(doc.domain);
    this.#day[slot] = this.#days.id(doc.day);
    this.#country[slot] = this.#countries.id(doc.country);
    // j < terms.length: the `?? 0` only satisfies the type and is never taken.
    let need = varintSize(terms.length);
    for (let j = 0, prev = 0; j < terms.length; j++) {
      const t = terms[j] ?? 0;
      need += varintSize(t - prev);
      prev = t;
    }
    if (this.#poolUsed + need > this.#pool.length) {
      const pool = new Uint8Array(Math.max(this.#poolUsed + need, Math.ceil(this.#pool.length * 1.5)));
      pool.set(this.#pool.subarray(0, this.#poolUsed));
      this.#pool = pool;
    }
    this.#termsAt[slot] = this.#poolUsed;
    let at = putVarint(this.#pool, this.#poolUsed, terms.length);
    for (let j = 0, prev = 0; j < terms.length; j++) {
      const t = terms[j] ?? 0;
      at = putVarint(this.#pool, at, t - prev);
      prev = t;
    }
    this.#poolUsed = at;
    if (this.#texts) {
      this.#texts[slot] = { url: doc.url, title: doc.title, content: doc.content, publishedDate: doc.publishedDate };
      this.#textChars += doc.url.length + doc.title.length + doc.content.length;
    }
    return slot;
  }

  /** Marks a slot dead and calls `each` with its term ids. */
  kill(slot: number, each: (t: number) => void): void {
    this.live[slot] = 0;
    const text = this.#texts?.[slot];
    if (text) {
      this.#textChars -= text.url.length + text.title.length + text.content.length;
      this.#texts![slot] = undefined;
    }
    const r = this.#reader;
    r.reset(this.#pool, must(this.#termsAt[slot], SLOT));
    const n = r.next();
    for (let j = 0, t = 0; j < n; j++) each((t += r.next()));
  }

  /** Pushes live slot `slot` of this table onto `into` (compaction); returns its new slot. */
  carry(slot: number, into: DocTable): number {
    const r = this.#reader;
    r.reset(this.#pool, must(this.#termsAt[slot], SLOT));
    const n = r.next();
    const terms = new Int32Array(n);
    for (let j = 0, t = 0; j < n; j++) terms[j] = t += r.next();
    const text = this.#texts?.[slot] ?? { url: '', title: '', content: '', publishedDate: null };
    const doc = { id: must(this.ids[slot], SLOT), ...this.filterable(slot), ...text };
    return into.push(doc, must(this.lens[slot], SLOT), must(this.titleLens[slot], SLOT), terms);
  }

  /** The filter fields of a slot. */
  filterable(slot: number): Filterable {
    return {
      domain: this.#domains.name(must(this.#domain[slot], SLOT))!,
      day: this.#days.name(must(this.#day[slot], SLOT)),
      country: this.#countries.name(must(this.#country[slot], SLOT)),
    };
  }

  /** The kept text of a live slot (undefined when texts are not kept). */
  text(slot: number): (DocText & { domain: string }) | undefined {
    const t = this.#texts?.[slot];
    return t && { ...t, domain: this.#domains.name(must(this.#domain[slot], SLOT))! };
  }

  get keepsTexts(): boolean {
    return this.#texts !== undefined;
  }

  /** Cuts the term pool to what is used (after a build). */
  trim(): void {
    if (this.#pool.length > this.#poolUsed + 1024) this.#pool = this.#pool.slice(0, this.#poolUsed + 1024);
  }

  /** Rough heap cost of the table. */
  get bytes(): number {
    const perSlot = 8 + 4 + 4 + 1 + 4 + 4 + 4 + 8;
    const texts = this.#texts ? this.#textChars * 2 + this.slots * 80 : 0;
    return (
      this.ids.length * perSlot +
      this.#pool.length +
      this.#domains.bytes +
      this.#days.bytes +
      this.#countries.bytes +
      texts
    );
  }

  #grow(n: number): void {
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.ids = f64(this.ids);
    this.#termsAt = f64(this.#termsAt);
    this.lens = i32(this.lens);
    this.titleLens = i32(this.titleLens);
    this.#domain = i32(this.#domain);
    this.#day = i32(this.#day);
    this.#country = i32(this.#country);
    const live = new Uint8Array(n);
    live.set(this.live);
    this.live = live;
  }
}
